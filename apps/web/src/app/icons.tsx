import {
  AlertOutlined, AppstoreAddOutlined, BarChartOutlined, ClusterOutlined, ControlOutlined, DatabaseOutlined,
  FileSearchOutlined, FolderOpenOutlined, FundProjectionScreenOutlined, HomeOutlined, MoneyCollectOutlined,
  ScheduleOutlined, SettingOutlined, AppstoreOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/** The icon names used by MENU_GROUPS in @meter/contracts. */
const ICONS: Record<string, ReactNode> = {
  HomeOutlined: <HomeOutlined />,
  MoneyCollectOutlined: <MoneyCollectOutlined />,
  ControlOutlined: <ControlOutlined />,
  FolderOpenOutlined: <FolderOpenOutlined />,
  SettingOutlined: <SettingOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  BarChartOutlined: <BarChartOutlined />,
  AppstoreAddOutlined: <AppstoreAddOutlined />,
  AlertOutlined: <AlertOutlined />,
  DatabaseOutlined: <DatabaseOutlined />,
  ScheduleOutlined: <ScheduleOutlined />,
  ClusterOutlined: <ClusterOutlined />,
  FundProjectionScreenOutlined: <FundProjectionScreenOutlined />,
};

export function menuIcon(name: string): ReactNode {
  return ICONS[name] ?? <AppstoreOutlined />;
}
