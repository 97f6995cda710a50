import { fakeTools } from "./drive-agent.fixture";

/** Where findPlace puts Lisbon, and the arguments a forecast for it takes. */
export const lisbon = { latitude: 38.72, longitude: -9.14 };

/**
 * TEST DOUBLE: the two weather tools a model chains: findPlace (knows only
 * Lisbon; any other place is an error result) and getForecast (always
 * sunny). The input schemas are the caller's, since each test asserts how
 * its own schemas reach the wire.
 */
export function weatherToolsWith(schemas: { place: Record<string, unknown>; forecast: Record<string, unknown> }) {
  return fakeTools({
    findPlace: {
      description: "Find a place by name; returns its coordinates.",
      inputSchema: schemas.place,
      answer: (args) => (args.name === "Lisbon" ? { output: JSON.stringify(lisbon) } : { output: `No place called ${String(args.name)}`, isError: true }),
    },
    getForecast: { description: "Forecast the weather at coordinates.", inputSchema: schemas.forecast, answer: (args) => ({ output: `sunny, 24°C at ${args.latitude},${args.longitude}` }) },
  });
}
