import { lazy, Suspense } from 'react';
import { Card, Col, Row, Statistic, Typography, Tag, Space, Button } from 'antd';
import { AppstoreOutlined, SafetyCertificateOutlined, UserOutlined, BankOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import dayjs from 'dayjs';
import { BANK_NAMES, COMPANY_LABELS, EDITION_TITLES, PRODUCT_VERSION, ACCESS } from '@meter/contracts';
import { useSession } from '../../app/session.ts';
import { buildMenu } from '../../app/menu.ts';
import { setAreaSelection, useAreaFilter } from '../../app/page.tsx';

// the billing figures and their chart load on their own (echarts stays out of the first load)
const HomeBilling = lazy(() => import('../fee/HomeBilling.tsx'));

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** 首页: a welcome dashboard with the billing figures (pages/fee/HomeBilling.tsx). */
export default function Home() {
  const session = useSession();
  const navigate = useNavigate();
  const area = useAreaFilter();
  if (!session) return null;
  const company = session.company;
  const edition = company?.edition ?? 0;
  const groups = buildMenu(session);
  const pages = groups.reduce((n, g) => n + g.routes.length, 0);
  const shortcuts = groups.flatMap((g) => g.routes).filter((r) => r.key !== 'home').slice(0, 12);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card className="home-welcome">
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {greeting(dayjs().hour())}，{session.user.realName || session.user.username}，欢迎使用{EDITION_TITLES[edition]}
        </Typography.Title>
        <Space wrap>
          {company ? (
            <span>
              {/* the company itself (a property company or a market); 出租屋 / 物业 name its rooms */}
              {COMPANY_LABELS[edition] ?? COMPANY_LABELS[0]}名称：<b data-testid="company-name">{company.name}</b>
            </span>
          ) : (
            <Tag color="purple">平台管理员</Tag>
          )}
          {area.areaName && <Tag color="blue">当前区域：{area.areaName}</Tag>}
          {area.searchArea && (
            <Button
              size="small"
              onClick={() => {
                // the area picked here opens on 区域信息 (/gether), which keeps its own pick afterwards
                setAreaSelection('gether', { searchArea: area.searchArea, searchClassify: area.searchClassify, areaName: area.areaName });
                navigate('/gether');
              }}
            >
              查看区域概况
            </Button>
          )}
          <Typography.Text type="secondary">版本 {PRODUCT_VERSION}</Typography.Text>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} lg={6}>
          <Card><Statistic valueStyle={{ fontSize: 20 }} title="今天" value={dayjs().format('YYYY-MM-DD dddd')} prefix={<SafetyCertificateOutlined />} /></Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card><Statistic valueStyle={{ fontSize: 20 }} title="账号类型" value={session.access === ACCESS.platform ? '平台管理员' : '单位用户'} prefix={<UserOutlined />} /></Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card><Statistic valueStyle={{ fontSize: 20 }} title="可用功能" value={pages} suffix="项" prefix={<AppstoreOutlined />} /></Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic valueStyle={{ fontSize: 20 }} title="结算银行" value={company ? BANK_NAMES[company.bankType] ?? '—' : '—'} prefix={<BankOutlined />} />
          </Card>
        </Col>
      </Row>
      <Suspense fallback={null}>
        <HomeBilling />
      </Suspense>
      <Card title="快捷入口">
        <Space wrap>
          {shortcuts.map((r) => (
            <Button key={r.key} onClick={() => navigate(`/${r.key}`)}>{r.title}</Button>
          ))}
        </Space>
      </Card>
    </Space>
  );
}
