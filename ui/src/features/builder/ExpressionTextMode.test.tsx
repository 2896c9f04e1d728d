import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { ExpressionTextMode } from "./ExpressionTextMode";
import { fakeSource } from "./fakeSource";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const schema = { partitionKey: { name: "vehicleId", type: "S" as const }, sortKey: { name: "recordedAt", type: "S" as const } };

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("ExpressionTextMode", { timeout: 20_000 }, () => {
  it("parses as the user types, once typing pauses, and hands a valid text back as state", async () => {
    const state = {
      parameter: "KeyConditionExpression" as const,
      state: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-7741" }, sort: null },
    };
    const parseExpressions = vi.fn<Commands["parseExpressions"]>(async () => ({ status: "parsed" as const, states: [state] }));
    const onParsed = vi.fn();
    renderWithCommands(
      <ExpressionTextMode
        parameter="KeyConditionExpression"
        initial={{ text: "", names: "", values: '{":v": {"S": "VEH#V-7741"}}' }}
        keySchema={schema}
        onParsed={onParsed}
        delay={20}
      />,
      fakeSource({ parseExpressions }),
    );
    const text = screen.getByLabelText("KeyConditionExpression");
    fireEvent.change(text, { target: { value: "vehicleId" } });
    fireEvent.change(text, { target: { value: "vehicleId = :v" } });
    await waitFor(() => expect(onParsed).toHaveBeenCalledWith(state));
    // Only the settled text was sent, with its maps and the key schema.
    expect(parseExpressions).toHaveBeenCalledTimes(1);
    expect(parseExpressions).toHaveBeenCalledWith(
      {
        Expressions: [{ parameter: "KeyConditionExpression", text: "vehicleId = :v" }],
        ExpressionAttributeNames: null,
        ExpressionAttributeValues: { ":v": { S: "VEH#V-7741" } },
      },
      schema,
    );
    expect(screen.getByText("Valid: shown in the visual builder.")).toBeTruthy();
  });

  it("shows DynamoDB's message and marks the text it points at", async () => {
    const message = 'Invalid KeyConditionExpression: Syntax error; token: "BETWIXT", near: "recordedAt BETWIXT :from"';
    const parseExpressions = vi.fn<Commands["parseExpressions"]>(async () => ({
      status: "invalid" as const,
      diagnostics: [{ exception: "ValidationException", message, expression: "KeyConditionExpression" as const, span: { start: 30, end: 37 } }],
    }));
    const onParsed = vi.fn();
    renderWithCommands(
      <ExpressionTextMode
        parameter="KeyConditionExpression"
        initial={{ text: "", names: "", values: "" }}
        keySchema={schema}
        onParsed={onParsed}
        delay={10}
      />,
      fakeSource({ parseExpressions }),
    );
    fireEvent.change(screen.getByLabelText("KeyConditionExpression"), {
      target: { value: "vehicleId = :v AND recordedAt BETWIXT :from AND :to" },
    });
    await waitFor(() => expect(screen.getByText(message, { exact: false })).toBeTruthy());
    expect(screen.getByText("BETWIXT", { selector: "mark" })).toBeTruthy();
    expect(screen.getByLabelText("KeyConditionExpression").getAttribute("aria-invalid")).toBe("true");
    expect(onParsed).not.toHaveBeenCalled();
  });

  it("tells the parent while the text does not stand for its state: being checked, not valid, or empty", async () => {
    const parseExpressions = vi.fn<Commands["parseExpressions"]>(async (input) =>
      input.Expressions[0]!.text.endsWith(">")
        ? {
            status: "invalid" as const,
            diagnostics: [{ exception: "ValidationException", message: "Syntax error; token: <EOF>", expression: "FilterExpression" as const, span: null }],
          }
        : { status: "parsed" as const, states: [{ parameter: "FilterExpression" as const, state: { type: "attributeExists" as const, path: ["a"] } }] },
    );
    const onIssue = vi.fn();
    renderWithCommands(
      <ExpressionTextMode
        parameter="FilterExpression"
        noun="filter"
        initial={{ text: "attribute_exists(a)", names: "", values: "" }}
        keySchema={null}
        onParsed={() => {}}
        onIssue={onIssue}
        delay={10}
      />,
      fakeSource({ parseExpressions }),
    );
    // Until the first parse answers, the text is being checked; then it stands for the state.
    expect(onIssue).toHaveBeenLastCalledWith({ kind: "checking" });
    await waitFor(() => expect(onIssue).toHaveBeenLastCalledWith(null));
    fireEvent.change(screen.getByLabelText("FilterExpression"), { target: { value: "a >" } });
    await waitFor(() =>
      expect(onIssue).toHaveBeenLastCalledWith({ kind: "blocked", reason: "The filter as typed is not valid: correct it, or remove the filter." }),
    );
    fireEvent.change(screen.getByLabelText("FilterExpression"), { target: { value: "  " } });
    await waitFor(() => expect(onIssue).toHaveBeenLastCalledWith({ kind: "empty" }));
    cleanup();
    expect(onIssue).toHaveBeenLastCalledWith(null);
  });

  it("says when a map is not JSON, without asking the backend", async () => {
    const parseExpressions = vi.fn<Commands["parseExpressions"]>();
    renderWithCommands(
      <ExpressionTextMode
        parameter="FilterExpression"
        initial={{ text: "a = :a", names: "", values: "{not json" }}
        keySchema={null}
        onParsed={() => {}}
        delay={10}
      />,
      fakeSource({ parseExpressions }),
    );
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("ExpressionAttributeValues is a JSON object."));
    expect(parseExpressions).not.toHaveBeenCalled();
  });
});
