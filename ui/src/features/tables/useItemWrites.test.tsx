import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook } from "@testing-library/react";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { commandsWrapper } from "../../ipc/testCommands";
import { conditionFailure, useItemWrites } from "./useItemWrites";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "AnimalType", type: "S" }, sortKey: { name: "Name", type: "S" } };
const tweety: Item = { AnimalType: { S: "Bird" }, Name: { S: "Tweety" }, Age: { N: "2" } };
const conditionFailed = { code: "CONDITION_FAILED" as const, message: "The conditional request failed", exception: "ConditionalCheckFailedException" };

function writes(fake: Parameters<typeof commandsWrapper>[0]) {
  return renderHook(() => useItemWrites({ profileId: "embedded", table: "Pets", keys, partialRun: false, replaceItem: vi.fn(), onRefused: vi.fn() }), {
    wrapper: commandsWrapper(fake),
  });
}

describe("useItemWrites", () => {
  it("says a new item's key is taken in a sentence, not as the condition the user never set", async () => {
    const { result } = writes({ putItem: vi.fn(async () => ({ status: "error" as const, error: conditionFailed })) });
    act(() => result.current.create(null));
    await act(() => result.current.save(tweety));
    expect(result.current.saveError).toEqual({
      name: "",
      message: "An item with AnimalType = Bird, Name = Tweety already exists. Give the new item another key, or open that item to change it.",
    });
  });

  it("says an edited item changed under the editor, and keeps other errors as they came", async () => {
    const put = vi.fn(async () => ({ status: "error" as const, error: conditionFailed }));
    const { result } = writes({ putItem: put });
    act(() => result.current.setEditing({ kind: "edit", original: tweety }));
    await act(() => result.current.save({ ...tweety, Age: { N: "3" } }));
    expect(result.current.saveError?.message).toBe(conditionFailure("edit", "AnimalType = Bird, Name = Tweety"));
    expect(result.current.saveError?.message).toContain("Someone changed or deleted item AnimalType = Bird, Name = Tweety after it was read");
    put.mockResolvedValueOnce({ status: "error" as const, error: { code: "THROTTLED" as const, message: "Rate exceeded", exception: "ThrottlingException" } } as never);
    await act(() => result.current.save({ ...tweety, Age: { N: "3" } }));
    expect(result.current.saveError).toEqual({ name: "ThrottlingException", message: "Rate exceeded" });
  });

  it("hands the editor no size for an item the engine could not size, rather than 0 bytes", async () => {
    const { result } = writes({
      checkItem: vi.fn(async () => ({
        status: "ok" as const,
        data: { sizeBytes: null, limitBytes: 409_600, problems: [{ path: "Age", message: "Attempting to store more than 38 significant digits in a Number" }] },
      })),
    });
    let checked: Awaited<ReturnType<typeof result.current.validate>> | null = null;
    await act(async () => {
      checked = await result.current.validate({ ...tweety, Age: { N: "1234567890123456789012345678901234567890" } });
    });
    expect(checked).toEqual({ sizeBytes: null, problems: [{ path: "Age", message: "Attempting to store more than 38 significant digits in a Number" }] });
  });
});
