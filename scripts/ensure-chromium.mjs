// Makes sure Debian's Chromium is there before the browser tests run.
// Test tools' own browser downloads do not work here; Debian's package does.
import { ensureDebianPackages } from './ensure-debian-packages.mjs';

ensureDebianPackages([
  { file: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', debianPackage: 'chromium' },
]);
