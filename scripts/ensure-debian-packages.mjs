// Makes sure the Debian packages a test command needs are installed, each named
// with a file it provides:
//   node scripts/ensure-debian-packages.mjs /usr/bin/caddy=caddy
// As root, missing packages are installed with apt-get. Otherwise the script
// fails with the command to run: a test must not be skipped for want of a tool.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** @param {{ file: string, debianPackage: string }[]} needs */
export function ensureDebianPackages(needs) {
  const missing = needs.filter(({ file }) => !existsSync(file));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map(({ debianPackage }) => debianPackage))].join(' ');
  if (process.getuid?.() !== 0) {
    const files = missing.map(({ file }) => file).join(', ');
    console.error(`Missing ${files}. Install with: sudo apt-get install -y ${packages}`);
    process.exit(1);
  }
  console.log(`Installing ${packages} from Debian packages…`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages.split(' ')], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureDebianPackages(
    process.argv.slice(2).map((argument) => {
      const [file = '', debianPackage = ''] = argument.split('=');
      if (!file || !debianPackage) {
        console.error(`Expected FILE=PACKAGE, got "${argument}".`);
        process.exit(2);
      }
      return { file, debianPackage };
    }),
  );
}
