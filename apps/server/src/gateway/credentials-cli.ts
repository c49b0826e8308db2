import { loadConfig } from '../config.ts';
import { DeviceSecrets, loadDeviceSecret } from './security.ts';

// Prints the MQTT logins an external broker needs (docs/OPERATIONS.md «设备侧安全»), one
// `username password` a line: the three server roles, and the NB meters whose addresses are given.
//   npm run -w @meter/server device-credentials -- 930000000001 940000000000001
// With TCP IMEIs after `--imei` it prints their 4G registration secrets instead.
const config = loadConfig();
const secrets = new DeviceSecrets(loadDeviceSecret(config.dataDir, config.DEVICE_SECRET));
const args = process.argv.slice(2);
if (args[0] === '--imei') {
  for (const imei of args.slice(1)) console.log(`${imei} ${secrets.fourG(imei)}`);
} else {
  for (const role of ['gateway', 'worker', 'api'] as const) {
    const c = secrets.service(role);
    console.log(`${c.username} ${c.password}`);
  }
  for (const address of args) {
    const c = secrets.meter(address);
    console.log(`${c.username} ${c.password}`);
  }
}
