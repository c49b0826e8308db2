// The mobile-number rule, without zod: the browser's first screens use it (bench/web-bundle.ts budget).

/**
 * What is wrong with a mainland China mobile number, in Chinese, or null when it is one: 11 digits
 * beginning 13–19. "须为 11 位手机号码" for 23800138000 (11 digits, but no mobile number begins 2) told
 * the user the wrong thing, so the message names the actual fault.
 */
export function phoneError(value: string, label = '手机号码'): string | null {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return `${label}只能填写数字`;
  if (v.length !== 11) return `${label}须为 11 位数字（现为 ${v.length} 位）`;
  if (!/^1[3-9]/.test(v)) return `${label}号段无效：中国大陆手机号码以 13～19 开头（现为 ${v.slice(0, 2)}）`;
  return null;
}
