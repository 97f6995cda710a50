import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { docsScreenshot } from "./support/docs-screenshot";

/**
 * A chat widget on two local sites: the demo workflow published as a widget
 * allowed on one origin; a host page with its script tag, served from that
 * origin and from another. From the allowed one the frame loads and the
 * offline model answers; on the other the browser refuses the frame (CSP
 * frame-ancestors), so the visitor sees no chat.
 */
const appPort = Number(process.env.E2E_PORT ?? 3217);
const allowedPort = appPort + 1500;
const otherPort = appPort + 1501;
const allowedOrigin = `http://127.0.0.1:${allowedPort}`;

/** A tiny host site: one page with the widget's script tag. */
function hostSite(port: number, scriptTag: string): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><title>A shop on port ${port}</title></head><body><h1>A shop on port ${port}</h1><p>Questions? Ask our assistant.</p>${scriptTag}</body></html>`);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

async function createWidget(page: Page): Promise<string> {
  await page.goto("/workflows/demo/widgets");
  await expect(page.getByRole("heading", { name: /^Chat widgets of / })).toBeVisible();
  const form = page.getByRole("region", { name: "New widget" });
  await form.getByRole("textbox", { name: "Name" }).fill("Shop");
  await form.getByRole("textbox", { name: /^Allowed origins/ }).fill("not an origin");
  await form.getByRole("button", { name: "Create widget" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "origins:" })).toContainText('origins: "not" is not an origin');
  await form.getByRole("textbox", { name: /^Allowed origins/ }).fill(allowedOrigin);
  await form.getByRole("button", { name: "Create widget" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Widget" })).toContainText('Widget "Shop" created');
  const script = await page.getByRole("textbox", { name: "Script tag" }).inputValue();
  expect(script).toMatch(/^<script src="http:\/\/127\.0\.0\.1:\d+\/embed\.js" data-widget="cw_[\w-]+" data-token="sbw_[\w-]+" async><\/script>$/);
  expect(await axeViolations(page)).toEqual([]);
  return script;
}

test.describe("chat widget on other sites", () => {
  const servers: Server[] = [];
  test.afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  test("answers from the allowed origin and is refused on another", async ({ page, browser }) => {
    // Three offline turns, two sites and a reload: longer than the default minute on a busy machine.
    test.setTimeout(180_000);
    const script = await createWidget(page);
    servers.push(await hostSite(allowedPort, script), await hostSite(otherPort, script));

    // A visitor: no session of the app.
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const shop = await visitor.newPage();
    const frameResponse = shop.waitForResponse((response) => response.url().includes("/embed/cw_"));
    await shop.goto(`${allowedOrigin}/`);
    const csp = (await (await frameResponse).allHeaders())["content-security-policy"];
    expect(csp).toContain(`frame-ancestors ${allowedOrigin}`);
    expect(csp).not.toContain(`127.0.0.1:${otherPort}`);
    const widget = shop.frameLocator("iframe[data-switchboard-widget]");
    await widget.getByRole("textbox", { name: "Message" }).fill("convert 5 kilometre to mile");
    await widget.getByRole("button", { name: "Send" }).click();
    await expect(widget.locator('li[data-role="assistant"]')).toContainText("(offline model)", { timeout: 30_000 });
    await expect(widget.locator('li[data-role="assistant"]')).toContainText("mile");
    await expect(widget.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
    await docsScreenshot(shop, "chat-widget");

    // The owner lowers the limit to one message a minute: the visitor's second message is refused, and the widget says why.
    const card = page.getByRole("article", { name: "Widget Shop" });
    await card.getByRole("spinbutton", { name: "Messages a visitor may send a minute" }).fill("1");
    await card.getByRole("button", { name: "Save widget Shop" }).click();
    await expect(page.getByRole("status").filter({ hasText: "saved" })).toContainText('Widget "Shop" saved.');
    await widget.getByRole("textbox", { name: "Message" }).fill("convert 2 kilometre to mile");
    await widget.getByRole("button", { name: "Send" }).click();
    await expect(widget.locator('li[data-role="assistant"]')).toHaveCount(2, { timeout: 30_000 });
    await expect(widget.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
    await widget.getByRole("textbox", { name: "Message" }).fill("convert 3 kilometre to mile");
    await widget.getByRole("button", { name: "Send" }).click();
    await expect(widget.getByRole("alert").filter({ hasText: "You have sent" })).toContainText(/You have sent more than 1 message in a minute; wait \d+ seconds and send again\./);

    // The same snippet on another origin: the browser will not show the frame.
    const elsewhere = await visitor.newPage();
    await elsewhere.goto(`http://127.0.0.1:${otherPort}/`);
    await expect(elsewhere.locator("iframe[data-switchboard-widget]")).toHaveCount(1);
    await expect.poll(() => elsewhere.frames().some((frame) => frame !== elsewhere.mainFrame() && frame.url().startsWith("chrome-error:")), { timeout: 15_000 }).toBe(true);
    await expect(elsewhere.frameLocator("iframe[data-switchboard-widget]").getByRole("textbox", { name: "Message" })).toHaveCount(0);

    // The visitor comes back: the frame opens their latest thread with its turns; New chat starts an empty one.
    await shop.reload();
    const again = shop.frameLocator("iframe[data-switchboard-widget]");
    await expect(again.locator('li[data-role="user"]').first()).toContainText("convert 5 kilometre to mile", { timeout: 30_000 });
    await expect(again.locator('li[data-role="assistant"]').first()).toContainText("mile");
    await again.getByRole("button", { name: "New chat" }).click();
    await expect(again.locator('li[data-role="user"]')).toHaveCount(0);
    await expect(again.getByText("Send a message to start.")).toBeVisible();

    // The owner sees the visitor's thread under the widget.
    await page.reload();
    await expect(page.getByRole("list", { name: "Threads of widget Shop" })).toContainText("convert 5 kilometre to mile");
    await visitor.close();
  });
});
