import type { FieldName } from "./tool-fields";

/** How much a field counts and how much its length dampens a match (BM25F's `b`, 0–1). */
export interface FieldWeight {
  weight: number;
  lengthNormalization: number;
}

/** BM25F parameters of the index. */
export interface RankingSettings {
  fields: Record<FieldName, FieldWeight>;
  /** Term-frequency saturation: how soon repeats of a term stop adding (BM25's k1). */
  saturation: number;
}

/**
 * The name says most about what a tool is for; parameter names next (a
 * `latitude` parameter says "place"); parameter descriptions are long and
 * wordy, so they count least. The server name is shared by many tools.
 */
export const defaultRankingSettings: RankingSettings = {
  fields: {
    name: { weight: 1.5, lengthNormalization: 0.5 },
    server: { weight: 1, lengthNormalization: 0 },
    description: { weight: 1, lengthNormalization: 0.75 },
    parameterNames: { weight: 1, lengthNormalization: 0.5 },
    parameterDescriptions: { weight: 0.5, lengthNormalization: 0.75 },
  },
  saturation: 1.2,
};
