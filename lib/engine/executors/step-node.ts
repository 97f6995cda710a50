import { configValues } from "../../manifest/config-values";
import type { NodeManifest } from "../../manifest";
import { runStep } from "../../calls/run-step";
import type { NodeJob, NodeOutcome, RunContext } from "../run-context";
import { resolveCredentials } from "./credentials";

/** A node with api/run.yaml and no toolExchange: its calls once, then its outputs. */
export async function runStepNode(job: NodeJob, manifest: NodeManifest, context: RunContext): Promise<NodeOutcome> {
  const config = configValues(manifest.config, job.node.config);
  const credentials = await resolveCredentials(manifest, context);
  const result = await runStep(
    { run: manifest.run ?? [], events: manifest.events, config: manifest.config },
    { config, inputs: job.inputs },
    { evaluator: context.env.evaluator, credentials, allowPrivateUrls: context.env.allowPrivateUrls, signal: context.signal },
  );
  if (!result.ok) return { status: context.signal.aborted ? "cancelled" : "failed", outputs: {}, error: result.message, turns: 0 };
  return { status: "completed", outputs: result.outputs, error: null, turns: 0 };
}
