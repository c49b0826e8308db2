// Public face of the content module (增值服务: type dictionaries, appeals and work orders, notices): import from here only.
export { default as contentRoutes } from './routes.ts';
export { seedContent } from './seed.ts';
export { seedNotices } from './seed-notices.ts';
export { openDeviceOrders, closeDeviceOrders, type DeviceException } from './device-orders.ts';
export { createOwnAppeal, ownerAppeal, ownerAppeals, ownerAppealTypes, ownerNotices, readOwnerNotice, type OwnerOfRooms } from './owner-side.ts';
