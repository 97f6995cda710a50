import { expect, type Page, test } from "@playwright/test";
import { seedAskingWorkflow } from "./fixtures/seed-approvals";
import { axeViolations } from "./support/axe";
import { docsScreenshot } from "./support/docs-screenshot";

/** The chat page of a workflow, as a person uses it. */
class ChatPage {
  constructor(readonly page: Page) {}
  goto(workflowId: string) {
    return this.page.goto(`/workflows/${workflowId}/chat`);
  }
  get input() {
    return this.page.getByRole("textbox", { name: "Message" });
  }
  get send() {
    return this.page.getByRole("button", { name: /^(Send|Answering…)$/ });
  }
  get threads() {
    return this.page.getByRole("navigation", { name: "Chat threads" });
  }
  answers() {
    return this.page.locator('li[data-role="assistant"]');
  }
  /**
   * Sends a message and follows the answer's bubble: when its text first
   * appeared and when the turn ended, in ms after the send, measured in the
   * page, and the distinct lengths the text had on the way.
   */
  async say(text: string): Promise<{ firstText: number; ended: number; lengths: number[] }> {
    const index = await this.answers().count();
    await this.input.fill(text);
    await this.page.evaluate((answerIndex) => {
      const state = { start: performance.now(), firstText: -1, ended: -1, lengths: [] as number[] };
      (window as unknown as { chatTiming: typeof state }).chatTiming = state;
      const observer = new MutationObserver(() => {
        const bubble = document.querySelectorAll('li[data-role="assistant"]')[answerIndex];
        const length = bubble ? [...bubble.querySelectorAll(".chat-text")].map((node) => node.textContent ?? "").join("").length : 0;
        if (length > 0 && state.firstText < 0) state.firstText = performance.now() - state.start;
        if (length > 0 && state.lengths.at(-1) !== length) state.lengths.push(length);
        const button = document.querySelector(".chat-input button[type=submit]");
        if (state.firstText >= 0 && state.ended < 0 && button?.textContent === "Send") {
          state.ended = performance.now() - state.start;
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    }, index);
    await this.send.click();
    await expect(this.answers().nth(index)).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => this.page.evaluate(() => (window as unknown as { chatTiming: { ended: number } }).chatTiming.ended), { timeout: 30_000 }).toBeGreaterThan(0);
    return this.page.evaluate(() => (window as unknown as { chatTiming: { firstText: number; ended: number; lengths: number[] } }).chatTiming);
  }
}

test.describe("chat: threads with streamed answers (offline model)", () => {
  test("a three-turn chat remembers turn 1 in turn 3, streams the answer before the turn ends, and keeps its threads", async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.goto("demo");
    await expect(page.getByRole("heading", { name: /^Chat with / })).toBeVisible();

    const first = await chat.say("convert 5 kilometre to mile");
    await expect(chat.answers().nth(0)).toContainText("mile");
    await expect(chat.answers().nth(0).getByRole("group", { name: /^Tool call .*: done$/ })).toBeVisible();
    expect(first.firstText).toBeGreaterThan(0);
    await expect(chat.threads.getByRole("button", { name: "convert 5 kilometre to mile", exact: true })).toBeVisible();

    await chat.say("convert 2 kilogram to pound");
    await expect(chat.answers().nth(1)).toContainText("pound");

    const third = await chat.say("Which distance did I ask about first?");
    await expect(chat.answers().nth(2)).toContainText('Earlier you said: "convert 5 kilometre to mile"');
    // Streamed: the text grew in several steps, and its first piece came well before the turn ended.
    const ratio = third.firstText / third.ended;
    console.log(`chat: first token at ${third.firstText.toFixed(0)} ms of a ${third.ended.toFixed(0)} ms turn (ratio ${ratio.toFixed(2)}), ${third.lengths.length} lengths seen`);
    expect(third.lengths.length).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(0.8);

    expect(await axeViolations(page)).toEqual([]);
    await docsScreenshot(page, "chat", { fullPage: true });

    // The thread is stored: opened again, its three turns come back from their runs.
    await page.reload();
    await chat.threads.getByRole("button", { name: "convert 5 kilometre to mile", exact: true }).click();
    await expect(chat.answers()).toHaveCount(3);
    await expect(chat.answers().nth(2)).toContainText('Earlier you said: "convert 5 kilometre to mile"');

    page.once("dialog", (dialog) => void dialog.accept("Units"));
    await chat.threads.getByRole("button", { name: "Rename the thread convert 5 kilometre to mile" }).click();
    await expect(chat.threads.getByRole("button", { name: "Units", exact: true })).toBeVisible();
    page.once("dialog", (dialog) => void dialog.accept());
    await chat.threads.getByRole("button", { name: "Delete the thread Units" }).click();
    await expect(chat.threads.getByRole("button", { name: "Units", exact: true })).toBeHidden();
  });

  test("a call held for approval shows in the bubble, and Approve lets the turn finish", async ({ page }) => {
    const workflowId = await seedAskingWorkflow("chat-approvals");
    const chat = new ChatPage(page);
    await chat.goto(workflowId);
    await chat.input.fill("convert 5 kilometre to mile");
    await chat.send.click();
    const held = chat.answers().nth(0).getByRole("group", { name: /: waiting for approval$/ });
    await expect(held).toBeVisible({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await held.getByRole("button", { name: /^Approve the call to / }).click();
    await expect(chat.answers().nth(0).getByRole("group", { name: /: done$/ })).toBeVisible({ timeout: 30_000 });
    await expect(chat.answers().nth(0)).toContainText("mile", { timeout: 30_000 });
    await expect(chat.send).toHaveText("Send");
  });

  test("the playground beside the canvas chats with the document on the canvas", async ({ page }) => {
    await page.goto("/workflows/demo");
    await page.getByRole("button", { name: "Chat", exact: true }).click();
    const playground = page.getByRole("complementary", { name: "Chat playground" });
    await expect(playground).toBeVisible();
    await playground.getByRole("textbox", { name: "Message" }).fill("convert 3 kilometre to mile");
    await playground.getByRole("button", { name: "Send" }).click();
    await expect(playground.locator('li[data-role="assistant"]').first()).toContainText("mile", { timeout: 30_000 });
    await expect(playground.getByRole("navigation", { name: "Chat threads" }).getByRole("button", { name: "convert 3 kilometre to mile", exact: true })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
