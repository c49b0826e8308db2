import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

const TEXT = {
  403: { title: '403', subTitle: '抱歉，您没有权限访问该页面' },
  404: { title: '404', subTitle: '抱歉，您访问的页面不存在' },
} as const;

export function ErrorResult({ status }: { status: 403 | 404 }) {
  const navigate = useNavigate();
  return (
    <Result
      status={String(status) as '403' | '404'}
      title={TEXT[status].title}
      subTitle={TEXT[status].subTitle}
      extra={<Button type="primary" onClick={() => navigate('/home')}>返回首页</Button>}
    />
  );
}
