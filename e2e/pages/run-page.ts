import type { Locator, Page } from "@playwright/test";

/** `/runs/<id>`: a run's overview and its trace tree with filters and waterfall. */
export class RunPage {
  readonly overview: Locator;
  readonly heading: Locator;
  readonly status: Locator;
  readonly nodeFilter: Locator;
  readonly toolFilter: Locator;
  readonly errorsOnly: Locator;
  readonly clearFilters: Locator;
  readonly filterCount: Locator;
  readonly trace: Locator;
  readonly traceViewport: Locator;
  readonly allRunsLink: Locator;
  readonly cancelButton: Locator;
  readonly cancelError: Locator;
  /** Where external content went: memory keys, outputs and the calls they came from. */
  readonly taint: Locator;

  constructor(readonly page: Page) {
    this.overview = page.getByRole("region", { name: /^Run of / });
    this.heading = this.overview.getByRole("heading", { level: 1 });
    this.status = this.overview.getByRole("status");
    const filters = page.getByRole("group", { name: "Filter the trace" });
    this.nodeFilter = filters.getByRole("combobox", { name: "Node" });
    this.toolFilter = filters.getByRole("combobox", { name: "Tool" });
    this.errorsOnly = filters.getByRole("checkbox", { name: "Errors only" });
    this.clearFilters = filters.getByRole("button", { name: "Clear filters" });
    this.filterCount = filters.getByRole("status");
    this.trace = page.getByRole("list", { name: "Trace: node runs and tool calls" });
    this.traceViewport = page.getByRole("region", { name: "Trace: node runs and tool calls, scrollable" });
    this.allRunsLink = this.overview.getByRole("link", { name: "All runs of this workflow" });
    this.cancelButton = this.overview.getByRole("button", { name: "Cancel run" });
    this.cancelError = this.overview.getByRole("alert");
    this.taint = page.getByRole("region", { name: "Taint" });
  }

  async goto(runId: string): Promise<void> {
    await this.page.goto(`/runs/${encodeURIComponent(runId)}`);
  }

  /** The disclosure button of a tool call (collapsed: "Show call X"). */
  showCall(tool: string): Locator {
    return this.trace.getByRole("button", { name: `Show call ${tool}`, exact: true });
  }

  hideCall(tool: string): Locator {
    return this.trace.getByRole("button", { name: `Hide call ${tool}`, exact: true });
  }

  /** The disclosure of a node run's calls (expanded: "Hide calls of node X"). */
  nodeToggle(nodeId: string): Locator {
    return this.trace.getByRole("button", { name: new RegExp(`^(Show|Hide) calls of node ${nodeId}$`) });
  }

  /** A node run's taint badge ("tainted: answer"), found by its row's disclosure. */
  nodeTaint(nodeId: string): Locator {
    const toggle = this.page.getByRole("button", { name: new RegExp(`^(Show|Hide) calls of node ${nodeId}$`) });
    return this.renderedRows().filter({ has: toggle }).getByText(/^tainted: /);
  }

  /** An entry of the Taint section: a memory key ("findings") or an output ("researcher.answer"). */
  taintedItem(kind: "memory key" | "output", label: string): Locator {
    return this.taint.getByRole("listitem", { name: `Tainted ${kind} ${label}`, exact: true });
  }

  /** The open details of a call: its arguments and result. */
  callDetails(tool: string): Locator {
    return this.trace.getByRole("region", { name: `Arguments and result of call ${tool}` });
  }

  callArguments(tool: string): Locator {
    return this.callDetails(tool).getByRole("region", { name: `Arguments of ${tool}` });
  }

  callResult(tool: string): Locator {
    return this.callDetails(tool).getByRole("region", { name: `Result of ${tool}` });
  }

  /** A waterfall bar, by what it times ("Call convertUnits", "Node agent"). */
  bar(what: string): Locator {
    return this.trace.getByRole("img", { name: new RegExp(`^${what}: starts at `) });
  }

  /** "Fork from here" on a recorded step, by what it forks ("call convertUnits's result", "model turn 1's answer"). */
  forkFrom(what: string): Locator {
    return this.page.getByRole("button", { name: `Fork from here: ${what}`, exact: true });
  }

  /** The fork editor opened by "Fork from here". */
  get forkEditor(): Locator {
    return this.page.getByRole("region", { name: /^Fork from / });
  }

  /** A model turn's row, by its number (its disclosure is named after it). */
  turnRow(sequence: number): Locator {
    return this.renderedRows().filter({ has: this.page.getByRole("button", { name: new RegExp(`^(Show|Hide) the answer of model turn ${sequence}$`) }) });
  }

  /** "Forked from run … at step …" and the forks of a run. */
  get forks(): Locator {
    return this.page.getByRole("region", { name: "Forks" });
  }

  /** The rows the list has in the DOM now (a virtualized list keeps only the visible ones). */
  renderedRows(): Locator {
    return this.trace.getByRole("listitem");
  }

  async scrollTraceToEnd(): Promise<void> {
    await this.traceViewport.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  }
}
