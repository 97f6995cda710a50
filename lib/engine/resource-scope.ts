/**
 * Owns what a run opens (MCP connections, child processes, timers) and
 * closes all of it, newest first, whatever happened. One failing close does
 * not keep the others open.
 */
export class ResourceScope {
  private readonly closers: Array<() => Promise<void> | void> = [];

  add(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  async closeAll(): Promise<void> {
    while (this.closers.length) {
      const close = this.closers.pop() as () => Promise<void> | void;
      try {
        await close();
      } catch {
        // Closing is best effort: the run is over either way.
      }
    }
  }
}
