/**
 * The run's key-value memory, shared by all its agents (task sub-flows
 * included) and gone when the run ends. Values are kept as JSON copies, so
 * a writer cannot change a value after saving it.
 */
export class RunMemory {
  private readonly values = new Map<string, unknown>();

  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }

  keys(): string[] {
    return [...this.values.keys()];
  }
}
