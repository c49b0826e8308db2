// 公摊电费缴费 (/comprePublic, a hidden route): the 公摊 meters of the picked area and, per room,
// payment of the 公摊费 charge codes (businessPay).
import { ComprePage } from './Compre.tsx';

export default function ComprePublic() {
  return <ComprePage publicFee />;
}
