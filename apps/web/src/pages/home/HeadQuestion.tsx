import { useEffect, useState } from 'react';
import { Card, Collapse, Empty, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { usePage } from '../../app/page.tsx';

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

  return (
    <Card title="帮助中心">
      <Tabs
        activeKey={mode}
        onChange={(k) => setMode(k as Mode)}
        items={[
          {
            key: 'video',
            label: '视频教程',
            children: <Empty description="暂无教学视频，平台管理员可在“平台管理 → 教学视频”中上传" style={{ padding: '40px 0' }} />,
          },
          {
            key: 'text',
            label: '文字教程',
            children: (
              <Collapse
                defaultActiveKey={['start']}
                items={TEXT_HELP.map((h) => ({
                  key: h.key,
                  label: h.title,
                  children: h.body.map((line, i) => <Typography.Paragraph key={i}>{line}</Typography.Paragraph>),
                }))}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
