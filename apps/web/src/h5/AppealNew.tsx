// 业主端 提交诉求: the room, the type, what is asked and up to 9 photos (private uploads of that room:
// only I and the property office can see them).
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Form, Input, Select } from 'antd';
import Loading from './Loading.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { request } from '../api/request.ts';
import { acceptAttr, checkBeforeUpload } from '../api/upload.ts';
import { toast } from '../app/feedback.tsx';
import { useMe } from './data.ts';

interface Shot { key: string; name: string; preview: string }
const MAX_PHOTOS = 9;

export default function AppealNew() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const me = useMe();
  const types = useQuery({ queryKey: ['owner', 'appealTypes'], queryFn: () => call(E.ownerApp.appealTypes) });
  const [form] = Form.useForm<{ roomId: number; typeId: number; title: string; content: string; contactPhone: string }>();
  const [photos, setPhotos] = useState<Shot[]>([]);
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const roomId = Form.useWatch('roomId', form);

  if (me.isLoading || types.isLoading) return <Loading block />;
  const rooms = me.data?.rooms ?? [];

  const pick = async (files: File[]) => {
    if (!files.length) return;
    if (!roomId) {
      toast.warning('请先选择房间');
      return;
    }
    setUploading(true);
    try {
      // a Private token for this room, then each picture
      const t = await call(E.ownerApp.uploadToken, { query: { roomId } });
      const added: Shot[] = [];
      for (const f of files.slice(0, MAX_PHOTOS - photos.length)) {
        const bad = checkBeforeUpload(f, 'image');
        if (bad) {
          toast.warning(bad);
          continue;
        }
        const form = new FormData();
        form.append('token', t.token);
        form.append('accept', 'image');
        form.append('file', f, f.name);
        const up = await request<{ key: string; name: string }>(E.files.upload.method, E.files.upload.path, { data: form });
        added.push({ key: up.key, name: up.name, preview: URL.createObjectURL(f) });
      }
      setPhotos((p) => [...p, ...added]);
    } catch {
      /* shown by the request wrapper */
    } finally {
      setUploading(false);
    }
  };

  const submit = async (v: { roomId: number; typeId: number; title: string; content: string; contactPhone: string }) => {
    setBusy(true);
    try {
      const r = await call(E.ownerApp.createAppeal, { body: { ...v, contactPhone: v.contactPhone ?? '', photos: photos.map((p) => p.key) } });
      toast.success('诉求已提交，物业将尽快处理');
      void client.invalidateQueries({ queryKey: ['owner', 'appeals'] });
      navigate(`/h5/appeals/${r.id}`, { replace: true });
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="h5-head"><h1>提交诉求</h1><Link to="/h5/appeals">返回</Link></div>
      <section className="h5-card">
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ roomId: rooms[0]?.roomId }}
          onValuesChange={(c) => { if ('roomId' in c) setPhotos([]); }}>
          <Form.Item name="roomId" label="房间" rules={[{ required: true, message: '请选择房间' }]}>
            <Select options={rooms.map((r) => ({ value: r.roomId, label: r.path }))} />
          </Form.Item>
          <Form.Item name="typeId" label="诉求类型" rules={[{ required: true, message: '请选择诉求类型' }]}>
            <Select placeholder="请选择" options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))} />
          </Form.Item>
          <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请填写诉求标题' }, { max: 100, message: '标题不能超过 100 个字' }]}>
            <Input placeholder="一句话说明问题" />
          </Form.Item>
          <Form.Item name="content" label="内容" rules={[{ required: true, whitespace: true, message: '请填写诉求内容' }, { max: 2000, message: '内容不能超过 2000 个字' }]}>
            <Input.TextArea rows={4} placeholder="请描述具体情况" />
          </Form.Item>
          <Form.Item name="contactPhone" label="联系电话（选填）" rules={[{ pattern: /^[0-9+\-() ]*$/, message: '联系电话只能包含数字、空格和 +-()' }]}>
            <Input inputMode="tel" placeholder="默认为登记的手机号" />
          </Form.Item>
          <Form.Item label={`照片（最多 ${MAX_PHOTOS} 张，仅本人和物业可见）`}>
            <div className="h5-photos">{photos.map((p) => <img key={p.key} src={p.preview} alt={p.name} />)}</div>
            {photos.length < MAX_PHOTOS && (
              <label className="ant-btn ant-btn-default" style={{ display: 'inline-flex', alignItems: 'center' }}>
                {uploading ? '上传中…' : '添加照片'}
                <input type="file" accept={acceptAttr('image')} multiple style={{ display: 'none' }} data-testid="appeal-photo-input"
                  onChange={(e) => {
                    // copied now: clearing the input (to allow the same file again) empties its live FileList
                    const chosen = e.target.files ? [...e.target.files] : [];
                    e.target.value = '';
                    void pick(chosen);
                  }} />
              </label>
            )}
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy} disabled={uploading}>提交</Button>
        </Form>
      </section>
    </>
  );
}
