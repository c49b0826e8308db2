import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen } from '@testing-library/react';
import { answer, mockServer, renderPage, serve, signIn } from '../../test/harness.tsx';
import { E } from '../../api/endpoints.gen.ts';
import HeadQuestion from './HeadQuestion.tsx';

configure({ asyncUtilTimeout: 8000 });

// /headQuestion: the platform's tutorials (/teachingVideo) shown to everyone — videos play from the
// upload store, text tutorials show their pictures in the image viewer.

const V = 'b'.repeat(32) + '.webm';
const P = ['c'.repeat(32) + '.jpg', 'd'.repeat(32) + '.jpg'];
const rows = [
  { id: 1, title: '平台概览', mode: 1, video: [V], images: [], content: '简介', sort: 1, status: 1 },
  { id: 2, title: '如何登记表具', mode: 2, video: [], images: P, content: '第一步\n第二步', sort: 2, status: 1 },
];

beforeEach(() => signIn(['home']));

describe('help page', () => {
  it('asks for the shown tutorials; videos play from the public store, pictures open the viewer', async () => {
    const calls = mockServer(serve([answer(E.teachingVideo.list, rows)]));
    renderPage('headQuestion', <HeadQuestion />, '/headQuestion?mode=video');
    const video = await screen.findByLabelText('平台概览');
    expect(video.getAttribute('src')).toBe(`/yewu/api/Upload/Public/${V}`);
    expect(calls[0].query.get('status')).toBe('1');

    fireEvent.click(screen.getByRole('tab', { name: '文字教程' }));
    expect(await screen.findByText('第二步')).toBeTruthy();
    fireEvent.click(screen.getByAltText('如何登记表具（2）'));
    const viewer = await screen.findByRole('dialog', { name: '图片查看器' });
    expect(viewer.querySelector('img')?.getAttribute('src')).toBe(`/yewu/api/Upload/Public/${P[1]}`);
    expect(screen.getByText('2 / 2')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: '图片查看器' })).toBeNull();
    // the built-in help stays
    expect(screen.getByText('快速开始')).toBeTruthy();
  });
});
