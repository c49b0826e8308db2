import { useEffect, useState } from 'react';
import { Card, Col, Collapse, Empty, Row, Space, Spin, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { CrudRow } from '@meter/contracts';
import { usePage } from '../../app/page.tsx';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { publicFileUrl } from '../../api/upload.ts';
import { ImageViewer } from '../../components/ImageViewer.tsx';

type Mode = 'video' | 'text';

const TEXT_HELP: { key: string; title: string; body: string[] }[] = [
  {
    key: 'start',
    title: '快速开始',
    body: [
      '1. 在“档案管理 → 区域档案”中建立园区、楼栋、楼层，再在“房间档案”中添加房间。',
      '2. 在“采集器档案”中登记采集器（4G、LoRa 网关或集中器），在“表具档案”中登记电表、水表并绑定房间。',
      '3. 在“收费方案”中设置单价，在“报警方案”中设置余额预警，最后在“业主档案”中登记业主。',
    ],
  },
  {
    key: 'pay',
    title: '缴费与退费',
    body: [
      '在“费用管理 → 水电缴费”中选择房间，可进行预付费充值、退费和补贴；充值成功后若表具因欠费断开，会自动恢复供电/供水。',
      '“财务对账”“票据打印”用于核对流水和打印收据，金额大写按人民银行规范显示。',
    ],
  },
  {
    key: 'control',
    title: '抄表与阀控',
    body: [
      '“随机抄表”可即时抄读表具；“远程阀控”可拉合闸或开关阀，关阀需输入阀控密码。',
      '设置了保电/保水的房间不会因欠费自动断开。',
    ],
  },
  {
    key: 'account',
    title: '账号与权限',
    body: [
      '“系统管理 → 角色管理”中为角色勾选可访问的菜单和可执行的操作；“账号管理”中为员工分配角色。',
      '离开座位时可点击右上角锁屏按钮，解锁需输入登录密码。',
    ],
  },
];

interface Tutorial {
  id: number;
  title: string;
  mode: number;
  video: string[];
  images: string[];
  content: string;
  sort: number;
}

const asTutorial = (r: CrudRow): Tutorial => ({
  id: r.id, title: String(r.title ?? ''), mode: Number(r.mode), video: (r.video as string[] | null) ?? [], images: (r.images as string[] | null) ?? [],
  content: String(r.content ?? ''), sort: Number(r.sort ?? 0),
});

/** A text tutorial: its paragraphs and its pictures (click one: the image viewer, SPEC §4). */
function TextTutorial({ t }: { t: Tutorial }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const images = t.images.map((k, i) => ({ src: publicFileUrl(k), name: `${t.title}（${i + 1}）` }));
  return (
    <>
      {t.content.split(/\n+/).filter(Boolean).map((line, i) => <Typography.Paragraph key={i}>{line}</Typography.Paragraph>)}
      {images.length > 0 && (
        <Space wrap size={12}>
          {images.map((im, i) => (
            <img
              key={im.src}
              src={im.src}
              alt={im.name}
              onClick={() => setViewing(i)}
              style={{ width: 200, height: 120, objectFit: 'cover', borderRadius: 6, border: '1px solid #f0f0f0', cursor: 'zoom-in' }}
            />
          ))}
        </Space>
      )}
      <ImageViewer open={viewing !== null} start={viewing ?? 0} images={images} onClose={() => setViewing(null)} />
    </>
  );
}

/** 帮助: 视频教程 and 文字教程 modes (header shortcuts open /headQuestion?mode=video|text). */
export default function HeadQuestion() {
  const [params] = useSearchParams();
  const { active } = usePage();
  const wanted: Mode = params.get('mode') === 'text' ? 'text' : 'video';
  const [mode, setMode] = useState<Mode>(wanted);
  useEffect(() => {
    // only follow the URL while this page is the visible tab (hidden pages see other pages' URLs)
    if (active && params.has('mode')) setMode(wanted);
  }, [active, wanted, params]);

  // the platform's tutorials (/teachingVideo), the ones set to 展示, in their order
  const { data, isLoading } = useQuery({
    queryKey: ['teachingVideo', 'shown'],
    queryFn: () => call(E.teachingVideo.list, { query: { status: 1, index: 1, size: 200 } }),
  });
  const rows = (data?.data ?? []).map(asTutorial).sort((a, b) => a.sort - b.sort || a.id - b.id);
  const videos = rows.filter((r) => r.mode === 1 && r.video.length > 0);
  const texts = rows.filter((r) => r.mode === 2);

  return (
    <Card title="帮助中心">
      <Tabs
        activeKey={mode}
        onChange={(k) => setMode(k as Mode)}
        items={[
          {
            key: 'video',
            label: '视频教程',
            children: isLoading ? <Spin style={{ display: 'block', padding: 40 }} /> : videos.length === 0 ? (
              <Empty description="暂无教学视频，平台管理员可在“平台管理 → 教学视频”中上传" style={{ padding: '40px 0' }} />
            ) : (
              <Row gutter={[16, 16]}>
                {videos.map((v) => (
                  <Col key={v.id} xs={24} md={12} xl={8}>
                    <Card size="small" title={v.title} styles={{ body: { padding: 0 } }}>
                      <video src={publicFileUrl(v.video[0])} controls preload="metadata" aria-label={v.title} style={{ width: '100%', aspectRatio: '16 / 9', background: '#000', display: 'block' }} />
                      {v.content && <Typography.Paragraph type="secondary" style={{ margin: 12 }} ellipsis={{ rows: 2 }}>{v.content}</Typography.Paragraph>}
                    </Card>
                  </Col>
                ))}
              </Row>
            ),
          },
          {
            key: 'text',
            label: '文字教程',
            children: (
              <Collapse
                key={texts.length}
                defaultActiveKey={[texts[0] ? `t${texts[0].id}` : 'start']}
                items={[
                  ...texts.map((t) => ({ key: `t${t.id}`, label: t.title, children: <TextTutorial t={t} /> })),
                  ...TEXT_HELP.map((h) => ({
                    key: h.key,
                    label: h.title,
                    children: h.body.map((line, i) => <Typography.Paragraph key={i}>{line}</Typography.Paragraph>),
                  })),
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
