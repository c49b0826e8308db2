import { defineResource } from '../resource.ts';

// Owners (业主, userinfo: page /recordsOwner) and their move-in history (page /inRoomRecord). Issue 3 §4.

export const GENDERS: Record<number, string> = { 0: '未知', 1: '男', 2: '女' };

/** 1 在住 (has a current room), 0 未入住 (never moved in, or moved out), 2 已销户. */
export const OWNER_STATUS: Record<number, string> = { 1: '在住', 0: '未入住', 2: '已销户' };

/** 1 入住, 2 迁出. */
export const MOVE_ACTIONS: Record<number, string> = { 1: '入住', 2: '迁出' };

const opts = (e: Record<number, string>) => Object.fromEntries(Object.entries(e)) as Record<string, string>;

/** 业主 (userinfo). `roomId` is only taken on create (moves the new owner in); later moves go through moveIn/moveOut. */
export const ownerResource = defineResource({
  name: 'owner',
  title: '业主',
  fields: [
    { key: 'name', label: '业主姓名', type: 'text', required: true, max: 32, search: 'like', width: 100 },
    { key: 'phone', label: '手机号码', type: 'phone', required: true, search: 'like', width: 130 },
    { key: 'idNumber', label: '身份证号', type: 'idcard', width: 180 },
    { key: 'gender', label: '性别', type: 'enum', options: opts(GENDERS), default: 0 },
    {
      key: 'email', label: '邮箱', type: 'text', max: 64, hideInTable: true,
      pattern: { re: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', message: '邮箱格式不正确' },
    },
    {
      key: 'roomId', label: '入住房间', type: 'ref', hideInTable: true, createOnly: true, tooltip: '选填：新增时直接入住该房间（只列出无人入住的房间）',
      ref: { url: '/yewu/api/getNoUserRoom' },
    },
    { key: 'roomName', label: '房间', type: 'text', readonly: true, search: 'like' },
    { key: 'areaName', label: '区域位置', type: 'text', readonly: true, width: 200 },
    { key: 'status', label: '状态', type: 'enum', options: opts(OWNER_STATUS), readonly: true, search: 'eq' },
    { key: 'movedInAt', label: '入住时间', type: 'datetime', readonly: true },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** 入住记录 (read-only). */
export const ownerRoomHistoryResource = defineResource({
  name: 'ownerRoomHistory',
  title: '入住记录',
  fields: [
    { key: 'ownerName', label: '业主姓名', type: 'text', readonly: true, search: 'like' },
    { key: 'ownerPhone', label: '手机号码', type: 'text', readonly: true, search: 'like' },
    { key: 'roomName', label: '房间', type: 'text', readonly: true, search: 'like', width: 240 },
    { key: 'action', label: '类型', type: 'enum', options: opts(MOVE_ACTIONS), readonly: true, search: 'eq' },
    { key: 'at', label: '时间', type: 'datetime', readonly: true },
    { key: 'operatorName', label: '操作人', type: 'text', readonly: true },
    { key: 'memo', label: '备注', type: 'text', readonly: true },
  ],
});
