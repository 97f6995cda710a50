import { expect, test } from "@playwright/test";
import { WorkflowsPage } from "./pages/workflows-page";
import { owner, signedInAs, signIn } from "./support/accounts";

/** A name no other test uses, so the tests share one database safely. */
function unique(base: string): string {
  return `${base}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

const signedOut = { cookies: [], origins: [] };


test.describe("accounts", () => {
  test("every response carries the security headers", async ({ request }) => {
    const response = await request.get("/");
    const headers = response.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  test.describe("signed out", () => {
    test.use({ storageState: signedOut });

    test("a page asks to sign in; a wrong password and an unknown email get the same message; sign out ends the session", async ({ page }) => {
      await page.goto("/runs");
      await expect(page).toHaveURL(/\/sign-in\?next=%2Fruns$/);
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(owner.email);
      await form.getByLabel("Password").fill("not the password");
      await form.getByRole("button", { name: "Sign in" }).click();
      const wrong = "That email and password do not match an account. Check both and try again.";
      await expect(form.getByRole("alert")).toHaveText(wrong);
      // React resets the form once the answer is in: wait for that before typing again.
      await expect(form.getByLabel("Password")).toHaveValue("");
      await form.getByLabel("Email").fill("nobody@e2e.test");
      await form.getByLabel("Password").fill("not the password");
      await form.getByRole("button", { name: "Sign in" }).click();
      await expect(form.getByLabel("Password")).toHaveValue("");
      await expect(form.getByRole("alert")).toHaveText(wrong);

      await form.getByLabel("Email").fill(owner.email);
      await form.getByLabel("Password").fill(owner.password);
      await form.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/runs$/);
      const cookie = (await page.context().cookies()).find((entry) => entry.name === "switchboard_session");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/sign-in$/);
      await page.goto("/");
      await expect(page).toHaveURL(/\/sign-in/);
      expect((await page.request.get("/api/runs/any")).status()).toBe(401);
    });
  });

  test("a viewer sees no Run or edit controls, and a create replayed with their session is refused", async ({ page, browser, baseURL }) => {
    const email = `${unique("viewer")}@e2e.test`;
    const password = "viewer password 1";
    await page.goto("/accounts");
    const add = page.getByRole("form", { name: "Add a person" });
    await add.getByLabel("Email").fill(email);
    await add.getByLabel("Role").selectOption("viewer");
    await add.getByLabel("First password").fill(password);
    await add.getByRole("button", { name: "Add the person" }).click();
    await expect(add.getByRole("status")).toContainText(`Added ${email} as viewer`);
    await expect(page.getByRole("combobox", { name: `Role of ${email}` })).toHaveValue("viewer");

    // The owner creates a workflow; the request it sends is replayed below with the viewer's session.
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    const ownerMade = unique("Owner made");
    const [actionRequest] = await Promise.all([page.waitForRequest((request) => request.method() === "POST" && Boolean(request.headers()["next-action"])), workflows.createWorkflow(ownerMade)]);

    const viewer = await signedInAs(browser, baseURL!, email, password);
    const viewerPage = await viewer.newPage();
    await viewerPage.goto("/");
    await expect(viewerPage.getByRole("link", { name: `${email} · viewer` })).toBeVisible();
    await expect(viewerPage.getByRole("link", { name: "Demo: unit conversion agent", exact: true })).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: "Create workflow" })).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: /^Delete / })).toHaveCount(0);
    await expect(viewerPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" })).toHaveCount(0);

    await viewerPage.goto("/workflows/demo");
    const toolbar = viewerPage.getByRole("toolbar", { name: "Canvas commands" });
    await expect(toolbar.getByRole("button", { name: "Fit view" })).toBeVisible();
    await expect(toolbar.getByRole("button", { name: "Run" })).toHaveCount(0);
    await expect(toolbar.getByRole("button", { name: "Versions" })).toHaveCount(0);
    await expect(toolbar.getByRole("button", { name: "Undo" })).toHaveCount(0);
    await expect(viewerPage.getByText("read only", { exact: true })).toBeVisible();

    await viewerPage.goto("/accounts");
    await expect(viewerPage.getByText("This page needs the owner role")).toBeVisible();

    // Calling the server action directly, with the viewer's cookie: refused, nothing created.
    const viewerMade = unique("Viewer made");
    const replayed = await viewer.request.post(actionRequest.url(), {
      headers: { "next-action": actionRequest.headers()["next-action"], "content-type": actionRequest.headers()["content-type"], accept: "text/x-component", origin: new URL(baseURL!).origin },
      data: actionRequest.postData()!.replace(ownerMade, viewerMade),
    });
    expect(replayed.ok()).toBe(false);
    await viewer.close();
    await workflows.goto();
    await expect(workflows.workflow(ownerMade)).toBeVisible();
    await expect(workflows.workflow(viewerMade)).toHaveCount(0);
  });

  test("a token is shown once, lets an MCP host in, and is refused (401) once revoked", async ({ page, request }) => {
    const initialize = (token: string) =>
      request.post("/api/mcp/demo", {
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        data: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e-host", version: "1" } } },
      });
    const name = unique("e2e host");
    await page.goto("/tokens");
    await page.getByLabel("Token name").fill(name);
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByTestId("new-token");
    await expect(shown).toHaveText(/^sbt_[A-Za-z0-9_-]{43}$/);
    const token = (await shown.textContent())!;
    expect((await initialize(token)).status()).toBe(200);

    await page.reload();
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(page.getByRole("table", { name: "Tokens" }).getByRole("row", { name: new RegExp(name) })).toContainText(token.slice(0, 10));

    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(page.getByRole("table", { name: "Tokens" }).getByRole("row", { name: new RegExp(name) })).toContainText("revoked");
    const refused = await initialize(token);
    expect(refused.status()).toBe(401);
    expect(await refused.text()).not.toContain(token);
  });
});
