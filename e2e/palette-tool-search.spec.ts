import { expect, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { ServerFormPage } from "./pages/servers-page";
import { WorkflowsPage } from "./pages/workflows-page";


test.use({ viewport: { width: 1440, height: 900 } });

// Deliver 4: the palette finds a server by a tool's name from the tool index sent with the page.
test("a tool's name finds its server in the palette with nothing fetched after the page loaded", async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const serverName = `Everything ${suffix}`;
  const form = new ServerFormPage(page);
  await form.gotoNew();
  await form.fill({ Name: serverName, Id: `everything-${suffix}`, "Catalogue entry": "everything" });
  await form.submit();
  await expect(page).toHaveURL(/\/servers\?saved=/);

  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  await workflows.createWorkflow(`Tool search ${suffix}`);
  const canvas = new CanvasPage(page);
  await expect(canvas.canvas).toBeVisible();

  // From here on the page may call no server action (listing a server's tools was one): each is refused and noted.
  const asked: string[] = [];
  await page.route("**/*", (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    asked.push(`${request.headers()["next-action"] ? "server action" : "POST"} ${request.url()}`);
    return route.abort();
  });
  await canvas.search.fill("echo");
  const item = canvas.palette.getByRole("region", { name: "MCP servers" }).getByRole("listitem", { name: serverName, exact: true });
  await expect(item).toBeVisible();
  await expect(item).toContainText("Tools: echo");
  await canvas.search.fill("no-such-tool-anywhere");
  await expect(item).toBeHidden();
  expect(asked).toEqual([]);
});
