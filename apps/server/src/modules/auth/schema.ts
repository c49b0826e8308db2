import { z } from 'zod';

export const LoginBody = z.object({
  username: z.string().trim().min(1, '请输入用户名').max(64),
  password: z.string().min(1, '请输入密码').max(128),
  code: z.string().max(16).optional(),
});

/** 8–64 characters with at least a letter and a digit. */
export const NewPassword = z
  .string()
  .min(8, '密码至少 8 位')
  .max(64, '密码最多 64 位')
  .regex(/[A-Za-z]/, '密码须包含字母')
  .regex(/\d/, '密码须包含数字');

export const ChangePasswordBody = z.object({
  oldPassword: z.string().min(1, '请输入原密码').max(128),
  newPassword: NewPassword,
});

export const UnlockBody = z.object({ password: z.string().min(1, '请输入密码').max(128) });
export const LoginCodeQuery = z.object({ username: z.string().trim().min(1, '请输入用户名').max(64) });
