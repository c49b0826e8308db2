-- Devices (issue 3 §5–6).
-- 1. A meter's area is its room's area, always: set from the room on every write of the meter, and
--    carried along when a room moves to another area. SECURITY DEFINER so a user whose area scope
--    hides part of the tree still keeps every row consistent.
CREATE OR REPLACE FUNCTION meters_area_from_room() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF NEW.room_id IS NULL THEN
    NEW.area_id := NULL;
  ELSE
    SELECT r.area_id INTO NEW.area_id FROM rooms r WHERE r.id = NEW.room_id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS meters_area_from_room ON meters;
--> statement-breakpoint
CREATE TRIGGER meters_area_from_room BEFORE INSERT OR UPDATE OF room_id, area_id ON meters
  FOR EACH ROW EXECUTE FUNCTION meters_area_from_room();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rooms_carry_meters() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE meters SET area_id = NEW.area_id WHERE room_id = NEW.id AND area_id IS DISTINCT FROM NEW.area_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS rooms_carry_meters ON rooms;
--> statement-breakpoint
CREATE TRIGGER rooms_carry_meters AFTER UPDATE OF area_id ON rooms
  FOR EACH ROW WHEN (OLD.area_id IS DISTINCT FROM NEW.area_id) EXECUTE FUNCTION rooms_carry_meters();
--> statement-breakpoint
-- 2. The device dictionaries (SPEC §7 lookups), platform-wide, with fixed ids: phase 单相 is id 1
--    because the valve-password flow checks phaseId === 1 (SPEC §4). Ids below 1000 are reserved
--    for these built-in rows; rows added by platform admins start at 1000.
INSERT INTO device_lookups (id, kind, name, code, sort) VALUES
  (1, 'phase', '单相', '1P', 1),
  (2, 'phase', '三相', '3P', 2),
  (11, 'protocol', 'DL/T645-2007', 'DLT645-2007', 1),
  (12, 'protocol', 'DL/T645-1997', 'DLT645-1997', 2),
  (13, 'protocol', 'CJ/T188-2004', 'CJT188-2004', 3),
  (14, 'protocol', 'Modbus-RTU', 'MODBUS', 4),
  (21, 'baud', '1200', '1200', 1),
  (22, 'baud', '2400', '2400', 2),
  (23, 'baud', '4800', '4800', 3),
  (24, 'baud', '9600', '9600', 4),
  (31, 'gateway', '4G DTU', '4G', 1),
  (32, 'gateway', 'LoRa 网关', 'LORA', 2),
  (33, 'gateway', 'NB-IoT 直连', 'NB', 3),
  (34, 'gateway', '集中器', 'CONCENTRATOR', 4),
  (35, 'gateway', '以太网', 'ETH', 5),
  (36, 'gateway', '4G 直连', '4G-DIRECT', 6),
  (41, 'port', 'RS485-1', '485-1', 1),
  (42, 'port', 'RS485-2', '485-2', 2),
  (43, 'port', 'M-Bus', 'MBUS', 3),
  (44, 'port', '电力载波', 'PLC', 4),
  (45, 'port', '红外', 'IR', 5),
  (51, 'brand', '正泰', 'CHINT', 1),
  (52, 'brand', '德力西', 'DELIXI', 2),
  (53, 'brand', '威胜', 'WASION', 3),
  (54, 'brand', '林洋', 'LINYANG', 4),
  (55, 'brand', '宁波水表', 'NBWM', 5),
  (56, 'brand', '三川', 'SUNTRONT', 6),
  (61, 'caliber', 'DN15', '15', 1),
  (62, 'caliber', 'DN20', '20', 2),
  (63, 'caliber', 'DN25', '25', 3),
  (64, 'caliber', 'DN32', '32', 4),
  (65, 'caliber', 'DN40', '40', 5),
  (66, 'caliber', 'DN50', '50', 6),
  (71, 'type', '预付费电表', 'PREPAY_E', 1),
  (72, 'type', '多功能电表', 'MULTI_E', 2),
  (73, 'type', '导轨式电表', 'DIN_E', 3),
  (74, 'type', '远传水表', 'REMOTE_W', 4),
  (75, 'type', '预付费水表', 'PREPAY_W', 5),
  (76, 'type', 'NB-IoT 水表', 'NB_W', 6)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('device_lookups', 'id'), greatest((SELECT max(id) FROM device_lookups), 999));
