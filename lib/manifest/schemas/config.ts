import { z } from "zod";
import { jsonSchema } from "./json-schema";

/** config.yaml: the schema of the node's settings; the inspector form is generated from it. */
export const configManifest = z.strictObject({
  $schema: z.string().optional().meta({ description: "Ignored: an editor's schema hint." }),
  configSchema: z
    .strictObject({
      type: z.literal("object").meta({ description: "Always `object`." }),
      properties: z.record(z.string(), jsonSchema).default({}).meta({ description: "Each setting, by name: type, title, description, default, enum, limits." }),
      required: z.array(z.string()).default([]).meta({ description: "The settings that must have a value." }),
    })
    .meta({ description: "A JSON Schema object describing the settings." }),
  "ui:order": z.array(z.string()).optional().meta({ description: "The order of the fields in the inspector; unlisted ones follow." }),
});
export type ConfigManifest = z.infer<typeof configManifest>;
