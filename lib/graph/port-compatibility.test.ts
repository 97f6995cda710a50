import { describe, expect, it } from "vitest";
import type { PortType } from "./node-type-info";
import { signalFit } from "./port-compatibility";

const fits = (source: PortType, target: PortType) => signalFit(source, target).fits;

describe("signalFit", () => {
  it("fits the same type, and anything into a signal", () => {
    for (const type of ["string", "number", "boolean", "object", "array", "signal"] as const) {
      expect(fits(type, type)).toBe(true);
      expect(fits(type, "signal")).toBe(true);
    }
  });

  it("turns numbers and booleans into text, and objects and arrays into JSON text with a warning", () => {
    expect(signalFit("number", "string")).toEqual({ fits: true });
    expect(signalFit("boolean", "string")).toEqual({ fits: true });
    expect(signalFit("object", "string")).toEqual({ fits: true, warning: "the object arrives on the text input written out as JSON text" });
    expect(signalFit("array", "string")).toMatchObject({ fits: true, warning: expect.stringContaining("JSON text") });
  });

  it("parses nothing and keeps arrays and objects apart", () => {
    expect(signalFit("number", "boolean")).toEqual({ fits: false, reason: "the output gives a number, but the input needs true or false" });
    expect(signalFit("string", "object")).toEqual({ fits: false, reason: "the output gives text, but the input needs an object (named values)" });
    expect(fits("string", "number")).toBe(false);
    expect(fits("boolean", "number")).toBe(false);
    expect(fits("array", "object")).toBe(false);
    expect(fits("object", "array")).toBe(false);
  });

  it("lets any take every value but a signal's missing one", () => {
    expect(fits("array", "any")).toBe(true);
    expect(fits("any", "number")).toBe(true);
    expect(signalFit("signal", "any")).toMatchObject({ fits: false, reason: expect.stringContaining("carries no value") });
    expect(fits("signal", "string")).toBe(false);
  });
});
