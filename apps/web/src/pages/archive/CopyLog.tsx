// 抄表日志 (/copyLog): every reading stored, beside the area tree (device/reading/list).
import ReadingLog from '../notes/ReadingLog.tsx';

export default function CopyLog() {
  return <ReadingLog title="抄表日志" />;
}
