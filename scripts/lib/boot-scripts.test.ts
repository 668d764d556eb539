import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildBootScripts } from './boot-scripts.ts';

describe('the boot scripts, as built for the page', () => {
  it('are small classic scripts: no module syntax, nothing to fetch', async () => {
    const scripts = await buildBootScripts();
    for (const [name, code] of Object.entries(scripts)) {
      // Compiles as a classic script, as an inline <script> is run.
      expect(() => new Script(code, { filename: name })).not.toThrow();
      expect(code).not.toMatch(/\bimport\s*\(/);
      // They travel in the page's first round trip (budgets.spec.ts).
      expect(code.length, name).toBeLessThan(3000);
    }
  });
});
