import { Card, Empty, Typography } from 'antd';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { usePageKey } from '../app/page.tsx';

export const PLACEHOLDER_TEXT = '该功能将在后续版本中开放';

/** Every route without its own page yet: the title from the registry and an empty state. */
export default function PlaceholderPage() {
  const routeKey = usePageKey();
  const title = ROUTE_BY_KEY[routeKey]?.title ?? routeKey;
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>{title}</Typography.Title>
      <Empty description={PLACEHOLDER_TEXT} style={{ padding: '48px 0' }} />
    </Card>
  );
}
