import { expect, type Locator, type Page } from "@playwright/test";

/** `/workflows/<id>`: the canvas editor. */
export class CanvasPage {
  readonly canvas: Locator;
  readonly palette: Locator;
  readonly search: Locator;
  readonly inspector: Locator;
  readonly toolbar: Locator;
  readonly messages: Locator;
  readonly saveStatus: Locator;
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByRole("application", { name: "Workflow canvas" });
    this.palette = page.getByRole("navigation", { name: "Node palette" });
    this.search = this.palette.getByRole("searchbox", { name: "Search node types" });
    this.inspector = page.getByRole("complementary", { name: "Inspector" });
    this.toolbar = page.getByRole("toolbar", { name: "Canvas commands" });
    this.messages = page.getByRole("status", { name: "Canvas messages" });
    this.saveStatus = page.getByRole("status", { name: "Save status" });
    this.heading = page.getByRole("heading", { level: 1 });
  }

  async goto(workflowId: string): Promise<void> {
    await this.page.goto(`/workflows/${encodeURIComponent(workflowId)}`);
    await expect(this.canvas).toBeVisible();
  }

  /** A node on the canvas, by its id (its accessible name ends with "node <id>)"). */
  node(id: string): Locator {
    return this.canvas.getByRole("group", { name: new RegExp(`node ${escape(id)}\\)$`) });
  }

  /** Every node on the canvas. */
  nodes(): Locator {
    return this.canvas.locator(".react-flow__node");
  }

  /** An edge, by its accessible name, e.g. `Service edge from a.mcpService to b.mcpService`. */
  edge(name: string): Locator {
    return this.canvas.getByRole("group", { name, exact: true });
  }

  /** A handle, by its accessible name, e.g. `Tool socket "mcpService" of agent (consumes tools)`. */
  handle(name: string): Locator {
    return this.canvas.getByRole("button", { name, exact: true });
  }

  paletteItem(title: string): Locator {
    return this.palette.getByRole("listitem", { name: title, exact: true });
  }

  /** Adds a node type with its palette item's Add button (the keyboard way). */
  async addFromPalette(title: string): Promise<void> {
    await this.palette.getByRole("button", { name: `Add ${title}`, exact: true }).click();
  }

  /** Drags a palette item onto the canvas (HTML5 drag and drop), dropping it at a point of the canvas. */
  async dragFromPalette(title: string, at: { x: number; y: number }): Promise<void> {
    // force: while a drag is on, React Flow's wrapper is what hit-testing finds above the pane; the drop lands on the pane all the same.
    await this.paletteItem(title).dragTo(this.canvas, { targetPosition: at, force: true });
  }

  /** Draws a connection with the mouse: press on one handle, move, release on the other. */
  async connect(from: Locator, to: Locator): Promise<void> {
    const start = await centre(from);
    const end = await centre(to);
    await this.page.mouse.move(start.x, start.y);
    await this.page.mouse.down();
    await this.page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 8 });
    await this.page.mouse.move(end.x, end.y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** Selects a node by clicking its title. */
  async select(id: string): Promise<void> {
    await this.node(id).locator(".wf-node-title").click();
    await expect(this.inspector.getByText(`node ${id}`, { exact: false }).first()).toBeVisible();
  }

  command(name: string): Locator {
    return this.toolbar.getByRole("button", { name, exact: true });
  }

  /** Waits until autosave has written every change. */
  async expectSaved(): Promise<void> {
    await expect(this.saveStatus).toHaveText(/^All changes saved/);
  }

  /** Moves the keyboard focus onto the canvas, where the shortcuts apply. */
  async focusCanvas(): Promise<void> {
    await this.canvas.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
  }
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  // A trial hover waits until the element stops moving (fit view animates) and nothing covers it.
  await locator.hover({ trial: true });
  const box = await locator.boundingBox();
  if (!box) throw new Error("the element has no box on screen");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
