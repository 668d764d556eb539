import { expect, test } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/lib/chromium.ts';
import { site } from '../src/content/site.ts';
import { untilAppAdopted } from './fixtures.ts';

// What a browser offers its assistant, seen through the DevTools protocol as
// Lighthouse sees it. Chromium exposes WebMCP tools only with this feature.
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--enable-features=WebMCPTesting'],
  },
});

test('the booking form is a tool from the first paint, described with every field, never half-described, and stays one once the app adopts it', async ({
  page,
}) => {
  interface Tool {
    name: string;
    description?: string;
    inputSchema?: {
      properties?: Record<string, { description?: string }>;
      required?: string[];
    };
  }
  const tools = new Map<string, Tool>();
  // Every tool ever added, in order: a tool made again shows twice.
  const added: string[] = [];
  const devtools = await page.context().newCDPSession(page);
  // Events Playwright's protocol types do not know yet.
  const on = <Event>(name: string, listener: (event: Event) => void) =>
    devtools.on(name as never, listener as never);
  on<{ tools: Tool[] }>('WebMCP.toolsAdded', (event) => {
    for (const tool of event.tools) tools.set(tool.name, tool);
    added.push(...event.tools.map((tool) => tool.name));
  });
  on<{ tools: Tool[] }>('WebMCP.toolsRemoved', (event) => {
    for (const tool of event.tools) tools.delete(tool.name);
  });
  // What the browser finds wrong with a form as a tool, at any moment (Lighthouse's check).
  const issues: string[] = [];
  on<{ issue: { details: { genericIssueDetails?: { errorType?: string } } } }>(
    'Audits.issueAdded',
    (event) => {
      const type = event.issue.details.genericIssueDetails?.errorType ?? '';
      if (type.startsWith('FormModelContext')) issues.push(type);
    },
  );
  await devtools.send('Audits.enable' as never);
  await devtools.send('WebMCP.enable' as never);

  // The booking page is pre-rendered with its form described as a tool: an
  // assistant fills it in, the visitor sends it once a script can.
  await page.goto('/#contact');
  const { agentTool } = site.bookingForm;
  await expect.poll(() => [...tools.keys()]).toEqual([agentTool.name]);
  // The app adopts the form as it is: the tool is not made again.
  await untilAppAdopted(page);
  expect([...tools.keys()]).toEqual([agentTool.name]);
  expect(added).toEqual([agentTool.name]);
  const tool = tools.get(agentTool.name)!;
  expect(tool.description).toBe(agentTool.description);
  const properties = tool.inputSchema?.properties ?? {};
  expect(Object.keys(properties)).toEqual(['fullName', 'phone', 'email', 'instagram', 'website']);
  expect(Object.values(properties).map((property) => property.description)).toEqual([
    agentTool.fields.fullName,
    agentTool.fields.phone,
    agentTool.fields.email,
    agentTool.fields.instagram,
    // The robots' trap tells assistants to leave it alone.
    site.bookingForm.trap.agentDescription,
  ]);
  expect(tool.inputSchema?.required).toEqual(['fullName', 'phone', 'email']);
  expect(issues).toEqual([]);
});
