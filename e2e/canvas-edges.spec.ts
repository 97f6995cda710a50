import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./pages/canvas-page";
import { WorkflowsPage } from "./pages/workflows-page";
import { docsScreenshot } from "./support/docs-screenshot";

test.use({ viewport: { width: 1440, height: 900 } });

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every node's box on screen, by node id. */
async function nodeBoxes(page: Page): Promise<Record<string, Rect>> {
  return page.locator(".react-flow__node").evaluateAll((nodes) =>
    Object.fromEntries(
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        return [node.getAttribute("data-id"), { x: box.x, y: box.y, width: box.width, height: box.height }];
      }),
    ),
  );
}

/** Points along an edge's drawn path, on screen, every few pixels. */
async function edgePoints(page: Page, edgeName: string): Promise<{ x: number; y: number }[]> {
  return page
    .getByRole("group", { name: edgeName, exact: true })
    .locator("path.react-flow__edge-path")
    .evaluate((path: SVGPathElement) => {
      const matrix = path.getScreenCTM()!;
      const length = path.getTotalLength();
      const points = [];
      for (let at = 0; at <= length; at += 4) {
        const point = path.getPointAtLength(at).matrixTransform(matrix);
        points.push({ x: point.x, y: point.y });
      }
      return points;
    });
}

const inside = (point: { x: number; y: number }, box: Rect) => point.x > box.x && point.x < box.x + box.width && point.y > box.y && point.y < box.y + box.height;
const overlapping = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Deliver 5: edges go around the nodes in their way; badges sit where they cover no node.
test("an edge whose straight way crosses a node is routed around it, and an approval badge covers no node", async ({ page }) => {
  const demo = JSON.parse(await readFile("e2e/fixtures/demo-workflow.json", "utf8"));
  // Start → End straight across the agent (they share a row), and an approval on the converter's service edge.
  const edges = [
    ...demo.edges
      .filter((edge: { target: string }) => edge.target !== "end")
      .map((edge: { kind: string }) => (edge.kind === "service" ? { ...edge, approval: "ask" } : edge)),
    { id: "question-to-end", kind: "signal", source: "start", sourceHandle: "question", target: "end", targetHandle: "result" },
  ];
  const name = `Routed edges ${Date.now().toString(36)}`;
  const workflows = new WorkflowsPage(page);
  await workflows.goto();
  await workflows.importJson("routed.json", JSON.stringify({ ...demo, name, edges }));
  await workflows.importStatus.getByRole("link", { name: `Open ${name}` }).click();
  const canvas = new CanvasPage(page);
  await expect(canvas.node("end")).toBeVisible();

  const crossing = "Signal edge from start.question to end.result";
  const agent = (await nodeBoxes(page)).agent;
  // The route arrives from a worker after the first paint: until then the edge is drawn plain, through the agent.
  await expect.poll(async () => (await edgePoints(page, crossing)).filter((point) => inside(point, agent)).length, { timeout: 15_000 }).toBe(0);
  const points = await edgePoints(page, crossing);
  expect(points.length).toBeGreaterThan(10);

  const badge = canvas.canvas.locator(".has-approval .react-flow__edge-textwrapper, .has-approval .react-flow__edge-textbg").first();
  await expect(badge).toBeVisible();
  const badgeBox = (await badge.boundingBox())!;
  const boxes = await nodeBoxes(page);
  for (const [id, box] of Object.entries(boxes)) expect(overlapping(badgeBox, box), `the badge covers ${id}`).toBe(false);
  await docsScreenshot(page, "canvas-routed-edges");
});
