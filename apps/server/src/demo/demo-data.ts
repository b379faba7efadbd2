/** Names and numbers of the demo tenant (docs/decisions.md 11): realistic, fixed, readable in one place. */

export const DEMO_TENANT = {
  name: 'Northwind Security',
  contactName: 'Dana Whitfield',
  brand: 'Northwind',
  email: 'ops@northwind.demo',
  phone: '+1 312 555 0142',
  address: '400 N State St, Chicago, IL 60654',
  timezone: 'America/Chicago',
} as const;

export const DEMO_USERS = [
  { email: 'admin@vigil.demo', name: 'Avery Platform', roles: ['superAdmin'], tenant: false },
  { email: 'admin@northwind.demo', name: 'Dana Whitfield', roles: ['Admin'], tenant: true },
  { email: 'pm@northwind.demo', name: 'Marcus Chen', roles: ['Project Manager'], tenant: true },
  { email: 'sales@northwind.demo', name: 'Priya Raman', roles: ['Salesman'], tenant: true },
] as const;

/** The demo portals (customers) and their device counts: 12 portals, 312 devices. */
export const DEMO_PORTALS: readonly { name: string; devices: number }[] = [
  { name: 'Acme Logistics', devices: 42 },
  { name: 'Bluewater Marina', devices: 18 },
  { name: 'Cedar Grove Apartments', devices: 30 },
  { name: 'Downtown Medical Center', devices: 45 },
  { name: 'Evergreen High School', devices: 36 },
  { name: 'Fairview Mall', devices: 40 },
  { name: 'Granite Savings Bank', devices: 14 },
  { name: 'Harbor View Hotel', devices: 24 },
  { name: 'Ironwood Manufacturing', devices: 20 },
  { name: 'Juniper Data Center', devices: 16 },
  { name: 'Keystone Parking Garage', devices: 12 },
  { name: 'Lakeside Public Library', devices: 15 },
];

/** Where devices hang, and what each device type is called; names read "Loading Dock Camera 2". */
export const DEMO_PLACES = [
  'Lobby',
  'Main Entrance',
  'Loading Dock',
  'Parking Level 1',
  'Parking Level 2',
  'Server Room',
  'Stairwell A',
  'Stairwell B',
  'Rear Exit',
  'Reception',
  'Warehouse',
  'Roof Access',
  'Hallway 2F',
  'Mail Room',
];
export const DEMO_KINDS = ['Camera', 'Intercom', 'Door Reader', 'Alarm Panel', 'Environmental Sensor'];
/** Models per device type (index = type code). */
export const DEMO_MODELS = [
  ['Axis P3265-LVE', 'Hikvision DS-2CD2387G2', 'Hanwha XNV-8080R', 'Bosch FLEXIDOME 5100i', 'Verkada CD52'],
  ['2N IP Verso 2.0', 'Aiphone IX-DV', 'Akuvox R29C'],
  ['HID Signo 40', 'Verkada AC41', 'Genetec Synergis Cloud Link', 'LenelS2 LNL-X2220'],
  ['DSC PowerSeries Neo', 'Bosch B6512', 'Honeywell Vista-21iP'],
  ['Verkada SV11', 'Axis D6310 Air Quality', 'Sensaphone WEB600'],
];
/** Device types weighted like a real install: mostly cameras and door readers (index into type codes). */
export const DEMO_TYPE_MIX = [0, 0, 0, 0, 2, 2, 2, 1, 3, 4];

export const DEMO_COMMENTS = [
  '<p>Customer reported the device dark since this morning. Dispatching a technician.</p>',
  '<p>Power cycled the PoE switch remotely; device still not responding.</p>',
  '<p>Replacement unit ordered, <strong>ETA 3 business days</strong>.</p>',
  '<p>Technician on site. Cable run to the device was cut during renovation.</p>',
  '<p>Device back online, monitoring for 24 hours before closing.</p>',
  '<p>Firmware updated to the latest release as part of the visit.</p>',
];
