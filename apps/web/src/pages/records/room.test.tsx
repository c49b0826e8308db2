import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockServer, ok, renderPage, signIn } from '../fee/testing.tsx';
import RecordsRoom from './RecordsRoom.tsx';
import SystemFees from '../system/SystemFees.tsx';
import { freshPageState } from '../../test/harness.tsx';

// What a new user found on /recordsRoom and /systemFees (issue 15): the 状态 filter showed a raw 1
// instead of 在用, and a room area of -5 was clamped to 0 by the input and saved without a word.

configure({ asyncUtilTimeout: 8000 });

const ROOM = {
  Id: 11, companyId: 1, name: '1-101', areaId: 2, areaName: '阳光园区/1层', decoration: 0, orientation: 1, chargingTypeId: null,
  chargingTypeName: null, sizeM2: '56.50', status: 1, memo: '', createdAt: '2025-03-01T00:00:00Z', ownerId: null, ownerName: null,
  ownerPhone: null, meterCount: 0,
};

freshPageState();

/** The text the 状态 select of the search form shows. */
async function statusFilterText(): Promise<string> {
  // ProTable's search form, or the light table's (components/LightTable.tsx)
  const form = document.querySelector('.ant-pro-query-filter, .light-table-search') as HTMLElement;
  await waitFor(() => expect(form).toBeTruthy());
  const item = [...form.querySelectorAll('.ant-form-item')].find((i) => i.querySelector('label')?.textContent === '状态') as HTMLElement;
  return (item.querySelector('.ant-select-selection-item') as HTMLElement | null)?.textContent ?? '';
}

describe('状态 filter', { timeout: 60_000 }, () => {
  it('/recordsRoom shows 在用, not 1', async () => {
    signIn(['recordsRoom'], ['room.basic']);
    const calls = mockServer((c) => (c.path.endsWith('/RoomInfo/GetAllChildRoom') ? ok([ROOM], 1) : undefined));
    renderPage('recordsRoom', <RecordsRoom />);
    await screen.findByText('1-101');
    expect(await statusFilterText()).toBe('在用');
    expect(calls.find((c) => c.path.endsWith('/RoomInfo/GetAllChildRoom'))!.query.get('status')).toBe('1');
  });

  it('/systemFees shows 在用, not 1', async () => {
    signIn(['systemFees'], []);
    mockServer((c) => (c.path.endsWith('/ChargingType/List') ? ok([{ id: 1, name: '住宅用电', chargeType: 1, status: 1, memo: '', createdAt: '2025-03-01T00:00:00Z' }], 1) : undefined));
    renderPage('systemFees', <SystemFees />);
    await screen.findByText('住宅用电');
    expect(await statusFilterText()).toBe('在用');
  });
});

describe('room area', { timeout: 60_000 }, () => {
  it('-5 ㎡ is refused with a message in the form, not saved as 0', async () => {
    signIn(['recordsRoom'], ['room.basic']);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/RoomInfo/GetAllChildRoom')) return ok([ROOM], 1);
      if (c.path.endsWith('/RoomInfo/Detail') && c.method === 'GET') return ok(ROOM);
      return undefined;
    });
    renderPage('recordsRoom', <RecordsRoom />);
    await screen.findByText('1-101');
    fireEvent.click(screen.getByText('编辑'));
    const dialog = await screen.findByRole('dialog');
    const size = within(dialog).getByLabelText('面积（㎡）') as HTMLInputElement;
    fireEvent.change(size, { target: { value: '-5' } });
    fireEvent.blur(size);
    expect(size.value).toBe('-5.00'); // kept as typed, not clamped to 0.00
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('面积（㎡）不能小于 0')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });
});
