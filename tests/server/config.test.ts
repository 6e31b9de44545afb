import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "../../server/config";

describe("configuration", () => {
  test("the timed jobs run unless CANTEEN_JOBS turns them off", () => {
    expect(loadConfig({}).CANTEEN_JOBS).toBe(true);
    expect(loadConfig({ CANTEEN_JOBS: "off" }).CANTEEN_JOBS).toBe(false);
    expect(loadConfig({ CANTEEN_JOBS: "on" }).CANTEEN_JOBS).toBe(true);
  });

  test("a switch takes on/off, true/false, yes/no and 1/0 in any case (the README writes on/off)", () => {
    for (const on of ["on", "true", "yes", "1", "ON", "Yes"]) expect(loadConfig({ CANTEEN_DEMO: on }).CANTEEN_DEMO, on).toBe(true);
    for (const off of ["off", "false", "no", "0", "OFF", "No"]) expect(loadConfig({ CANTEEN_DEMO: off }).CANTEEN_DEMO, off).toBe(false);
    expect(loadConfig({}).CANTEEN_DEMO).toBe(false);
  });

  test("a value that is neither on nor off stops the start with the variable named", () => {
    expect(() => loadConfig({ CANTEEN_JOBS: "sometimes" })).toThrow(ConfigError);
    expect(() => loadConfig({ CANTEEN_JOBS: "sometimes" })).toThrow(/^配置错误：CANTEEN_JOBS /);
  });
});
