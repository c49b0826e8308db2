import { defineResource } from '../resource.ts';

// 教学视频 (SPEC §7 Sys_TeachingVideo, route /teachingVideo): the platform's tutorials. A 视频教程 plays
// its uploaded video on /headQuestion (视频教程 tab); a 文字教程 shows its text and pictures there (文字教程 tab).

export const TEACHING_MODES: Record<string, string> = { 1: '视频教程', 2: '文字教程' };
export const TEACHING_STATUS: Record<string, string> = { 1: '展示', 0: '隐藏' };

export const teachingVideoResource = defineResource({
  name: 'teachingVideo',
  title: '教学视频',
  fields: [
    { key: 'title', label: '标题', type: 'text', required: true, max: 100, search: 'like', unique: true, width: 220 },
    // no default: a default would also preselect the list's filter and hide the other kind
    { key: 'mode', label: '类别', type: 'enum', options: TEACHING_MODES, colors: { 1: 'blue', 2: 'purple' }, required: true, search: 'eq', width: 90 },
    {
      key: 'video', label: '视频', type: 'file', file: { accept: 'video', kind: 'Public', max: 1 }, default: [], width: 90,
      tooltip: '视频教程上传一个视频（MP4、WebM 等，最大 200 MB）',
    },
    { key: 'images', label: '图片', type: 'file', file: { accept: 'image', kind: 'Public', max: 9 }, default: [], width: 150, tooltip: '文字教程的配图，最多 9 张' },
    { key: 'content', label: '文字内容', type: 'textarea', max: 5000, width: 140, tooltip: '文字教程的正文；视频教程可写简介' },
    { key: 'sort', label: '排序', type: 'int', min: 0, max: 9999, default: 0, width: 70, tooltip: '数字小的排在前面' },
    { key: 'status', label: '状态', type: 'enum', options: TEACHING_STATUS, colors: { 1: 'success' }, default: 1, search: 'eq', width: 90 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true, width: 170 },
  ],
});
