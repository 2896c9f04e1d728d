import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { ItemEditor, type ItemEditorProps, type ItemValidation } from "./ItemEditor";
import { DeleteConfirm } from "./DeleteConfirm";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const reading: Item = {
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: "TS#2026-06-23T09:00:01Z" },
  speedKph: { N: "42" },
  tags: { SS: ["north", "fleet"] },
};

function setup(overrides: Partial<ItemEditorProps> = {}, result: ItemValidation = { sizeBytes: 1234, problems: [] }) {
  const validate = vi.fn(async (_item: Item) => result);
  const props: ItemEditorProps = { keys, item: reading, existing: true, validate, onSave: vi.fn(), onCancel: vi.fn(), validateDelayMs: 0, ...overrides };
  render(<ItemEditor {...props} />);
  return { ...props, validate };
}

const mode = (name: string) => fireEvent.click(screen.getByRole("radio", { name }));
const textArea = () => screen.getByRole("textbox", { name: /^Item as/ }) as HTMLTextAreaElement;
const value = (name: string) => screen.getByLabelText(`Value of ${name}`) as HTMLInputElement;
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;
/** Save (or Create) is off, described by the sentence beside it, which says why. */
function blockedBecause(name: string): string {
  const off = button(name);
  expect(off.disabled).toBe(true);
  const reason = screen.getByTestId("item-save-blocked");
  expect(off.getAttribute("aria-describedby")).toBe(reason.id);
  return reason.textContent ?? "";
}

describe("ItemEditor", () => {
  it("shows one typed row per attribute, key rows first and read-only for an existing item", () => {
    setup();
    const names = within(screen.getByRole("list", { name: "Attributes" })).getAllByRole("listitem").map((li) => (li.querySelector("input") as HTMLInputElement).value);
    expect(names).toEqual(["vehicleId", "recordedAt", "speedKph", "tags"]);
    expect(value("vehicleId").readOnly).toBe(true);
    expect((screen.getByLabelText("Type of vehicleId") as HTMLSelectElement).disabled).toBe(true);
    expect(screen.queryByRole("button", { name: "Remove vehicleId" })).toBeNull();
    expect(value("speedKph").readOnly).toBe(false);
    expect((screen.getByLabelText("Type of speedKph") as HTMLSelectElement).value).toBe("N");
    expect((screen.getByLabelText("Value of tags") as HTMLTextAreaElement).value).toBe("north\nfleet");
  });

  it("keeps the edit across form, JSON and DynamoDB JSON, numbers exact and sets kept", () => {
    setup();
    fireEvent.change(value("speedKph"), { target: { value: "99.50" } });
    mode("JSON");
    expect(textArea().value).toContain('"speedKph": 99.50');
    expect(textArea().value).toContain('"tags": [\n    "north",\n    "fleet"\n  ]');
    const edited = textArea().value.replace('"speedKph": 99.50', '"speedKph": 99.50,\n  "odometer": 123456789012345678901234567890');
    fireEvent.change(textArea(), { target: { value: edited } });
    mode("DynamoDB JSON");
    const dynamo = JSON.parse(textArea().value) as Item;
    expect(dynamo).toEqual({ ...reading, speedKph: { N: "99.50" }, odometer: { N: "123456789012345678901234567890" } });
    mode("Form");
    expect(value("odometer").value).toBe("123456789012345678901234567890");
    expect((screen.getByLabelText("Type of tags") as HTMLSelectElement).value).toBe("SS");
  });

  it("stays in a mode whose text does not parse and says why", () => {
    setup({ defaultMode: "plain" });
    fireEvent.change(textArea(), { target: { value: '{"vehicleId": "VEH#V-7741",' } });
    mode("Form");
    expect(screen.getByRole("radio", { name: "JSON" })).toHaveProperty("checked", true);
    expect(screen.getAllByRole("alert").map((a) => a.textContent)).toContain(
      "Fix this before switching: The JSON is not valid at line 1, column 28: expected an attribute name in double quotes.",
    );
  });

  it("shows the engine's size on a 400 KB meter and its problems next to the attribute", async () => {
    const { validate } = setup({}, { sizeBytes: 1536, problems: [{ path: "tags", message: "Tags are wrong in some way the engine knows." }] });
    await waitFor(() => expect(screen.getByRole("meter", { name: "Item size" }).getAttribute("aria-valuetext")).toBe("1.5 KB of 400 KB"));
    expect(screen.getByRole("meter").getAttribute("aria-valuenow")).toBe("1536");
    expect(validate).toHaveBeenLastCalledWith(reading);
    const tagsRow = screen.getByLabelText("Value of tags");
    expect(document.getElementById(tagsRow.getAttribute("aria-describedby")!)?.textContent).toBe("Tags are wrong in some way the engine knows.");
    mode("DynamoDB JSON");
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Problems" })).getByRole("listitem").textContent).toContain("Tags are wrong"));
  });

  it("confirms with the key named before saving, and saves the edited item", async () => {
    const props = setup();
    fireEvent.change(value("speedKph"), { target: { value: "47" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toContain("Save item vehicleId = VEH#V-7741, recordedAt = TS#2026-06-23T09:00:01Z?");
    expect(props.onSave).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(within(confirm).getByRole("button", { name: "Save" }));
    fireEvent.keyDown(confirm, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Save" }));
    expect(props.onSave).toHaveBeenCalledWith({ ...reading, speedKph: { N: "47" } });
  });

  it("requires typed key attributes for a new item: Create is off, and says the first problem", async () => {
    const props = setup({ item: null, existing: false, defaultMode: "dynamo" });
    fireEvent.change(textArea(), { target: { value: '{"vehicleId": {"N": "7741"}}' } });
    const problems = within(screen.getByRole("list", { name: "Problems" })).getAllByRole("listitem").map((li) => li.textContent);
    expect(problems).toEqual(["vehicleId is the partition key: it must be a string (S), not a number.", "recordedAt is the sort key and is required."]);
    expect(blockedBecause("Create")).toBe("Create is off until this is fixed: vehicleId is the partition key: it must be a string (S), not a number.");
    fireEvent.click(button("Create"));
    expect(props.onSave).not.toHaveBeenCalled();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("creates a new item from the form, with key rows ready to fill: Create is off until the key is", async () => {
    const props = setup({ item: null, existing: false });
    expect(value("vehicleId").readOnly).toBe(false);
    expect(screen.queryByRole("list", { name: "Problems" })).toBeNull();
    // A new item is not called wrong at its rows as it opens; Create says what it waits for.
    expect(value("vehicleId").getAttribute("aria-describedby")).toBeNull();
    expect(blockedBecause("Create")).toBe("Create is off until this is fixed: vehicleId is the partition key: it cannot be empty.");
    // Once the item is edited, a problem shows next to its attribute's row.
    fireEvent.change(value("vehicleId"), { target: { value: "VEH#V-9" } });
    expect(document.getElementById(value("recordedAt").getAttribute("aria-describedby")!)?.textContent).toBe("recordedAt is the sort key: it cannot be empty.");
    expect(blockedBecause("Create")).toBe("Create is off until this is fixed: recordedAt is the sort key: it cannot be empty.");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    fireEvent.change(value("recordedAt"), { target: { value: "META" } });
    expect(button("Create").disabled).toBe(false);
    expect(screen.queryByTestId("item-save-blocked")).toBeNull();
    fireEvent.click(button("Create"));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toContain("Create item vehicleId = VEH#V-9, recordedAt = META?");
    fireEvent.click(within(confirm).getByRole("button", { name: "Create" }));
    expect(props.onSave).toHaveBeenCalledWith({ vehicleId: { S: "VEH#V-9" }, recordedAt: { S: "META" } });
  });

  it("refuses a changed key on an existing item", async () => {
    setup({ defaultMode: "plain" });
    fireEvent.change(textArea(), { target: { value: textArea().value.replace("VEH#V-7741", "VEH#V-1") } });
    expect(screen.getByRole("list", { name: "Problems" }).textContent).toContain(
      "vehicleId is part of this item's key and cannot be changed here; duplicate the item to save it under another key.",
    );
  });

  it("adds, types and removes attributes, checking sets as they are typed", async () => {
    const props = setup();
    fireEvent.click(screen.getByRole("button", { name: "Add attribute" }));
    const name = screen.getByLabelText("Name of new attribute");
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: "axles" } });
    fireEvent.change(screen.getByLabelText("Type of axles"), { target: { value: "NS" } });
    fireEvent.change(screen.getByLabelText("Value of axles"), { target: { value: "2\n2.0" } });
    const field = screen.getByLabelText("Value of axles");
    expect(document.getElementById(field.getAttribute("aria-describedby")!)?.textContent).toBe('"2.0" appears twice; a set holds each value once.');
    fireEvent.change(field, { target: { value: "2\n3" } });
    fireEvent.click(screen.getByRole("button", { name: "Remove speedKph" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Save" }));
    expect(props.onSave).toHaveBeenCalledWith({ vehicleId: reading.vehicleId, recordedAt: reading.recordedAt, tags: reading.tags, axles: { NS: ["2", "3"] } });
  });

  it("does not offer to save an item over 400 KB", async () => {
    const props = setup({}, { sizeBytes: 409_601, problems: [] });
    await waitFor(() => expect(screen.getByText("The item is too large: DynamoDB items are at most 400 KB, names included.")).toBeTruthy());
    expect(blockedBecause("Save")).toBe("Save is off until this is fixed: The item is too large: DynamoDB items are at most 400 KB, names included.");
    fireEvent.click(button("Save"));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(props.onSave).not.toHaveBeenCalled();
  });

  it("keeps Save off, the reason beside it, while a value is not a number; on again once it is", () => {
    setup();
    expect(button("Save").disabled).toBe(false);
    fireEvent.change(value("speedKph"), { target: { value: "4x2" } });
    expect(blockedBecause("Save")).toBe('Save is off until this is fixed: speedKph: "4x2" is not a number. Write it like 42 or -3.5.');
    fireEvent.change(value("speedKph"), { target: { value: "42" } });
    expect(button("Save").disabled).toBe(false);
    expect(button("Save").getAttribute("aria-describedby")).toBeNull();
    expect(screen.queryByTestId("item-save-blocked")).toBeNull();
  });

  it("keeps Save off while the engine finds a problem with the item as it is", async () => {
    const props = setup({}, { sizeBytes: null, problems: [{ path: "speedKph", message: "Attempting to store more than 38 significant digits in a Number" }] });
    await waitFor(() => expect(button("Save").disabled).toBe(true));
    expect(blockedBecause("Save")).toBe("Save is off until this is fixed: speedKph: Attempting to store more than 38 significant digits in a Number");
    fireEvent.click(button("Save"));
    expect(props.onSave).not.toHaveBeenCalled();
  });

  it("disables every write control on a read-only connection and says so", () => {
    setup({ readOnly: true });
    expect(screen.getByRole("note").textContent).toBe("This connection is read-only: items can be viewed but not changed.");
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    // Off because of the connection (the note says so), not because of the item.
    expect(screen.queryByTestId("item-save-blocked")).toBeNull();
    expect((screen.getByRole("button", { name: "Add attribute" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Remove speedKph" }) as HTMLButtonElement).disabled).toBe(true);
    expect(value("speedKph").readOnly).toBe(true);
    expect((screen.getByLabelText("Type of speedKph") as HTMLSelectElement).disabled).toBe(true);
    mode("JSON");
    expect(textArea().readOnly).toBe(true);
  });

  it("shows why a save failed, with the exception name", () => {
    setup({ saveError: { name: "ConditionalCheckFailedException", message: "The conditional request failed" } });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe("The item was not saved: The conditional request failed ConditionalCheckFailedException");
    expect(alert.querySelector("code")?.textContent).toBe("ConditionalCheckFailedException");
  });
});

describe("ItemEditor's wording", () => {
  it("says an empty key once, not once in the editor's words and again in the engine's", async () => {
    setup({ item: null, existing: false }, { sizeBytes: 20, problems: [{ path: "vehicleId", message: "The key attribute vehicleId cannot be empty." }] });
    fireEvent.change(value("recordedAt"), { target: { value: "META" } });
    await waitFor(() => expect(value("vehicleId").getAttribute("aria-describedby")).not.toBeNull());
    expect(document.getElementById(value("vehicleId").getAttribute("aria-describedby")!)?.textContent).toBe(
      "vehicleId is the partition key: it cannot be empty.",
    );
  });

  it("shows no size of 0 bytes for an item whose values the engine cannot size", async () => {
    setup({}, { sizeBytes: null, problems: [{ path: "speedKph", message: "Attempting to store more than 38 significant digits in a Number" }] });
    await waitFor(() => expect(screen.getByTestId("item-size-unknown").textContent).toBe("Size: not known until every value is valid."));
    expect(screen.queryByRole("meter")).toBeNull();
    expect(document.body.textContent).not.toContain("0 bytes");
  });

  it("shows a failed save explained in words without an exception name to decode", () => {
    setup({ saveError: { name: "", message: "An item with vehicleId = VEH#V-7741, recordedAt = META already exists." } });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe("The item was not saved: An item with vehicleId = VEH#V-7741, recordedAt = META already exists.");
    expect(alert.querySelector("code")).toBeNull();
  });
});

describe("DeleteConfirm", () => {
  it("names the key and deletes only on confirmation", () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<DeleteConfirm keys={keys} item={reading} onConfirm={onConfirm} onCancel={onCancel} />);
    const dialog = screen.getByRole("alertdialog", { name: "Delete item vehicleId = VEH#V-7741, recordedAt = TS#2026-06-23T09:00:01Z?" });
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Delete" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("offers no delete on a read-only connection", () => {
    render(<DeleteConfirm keys={keys} item={reading} onConfirm={vi.fn()} onCancel={vi.fn()} readOnly />);
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
    expect(screen.getByRole("alertdialog").textContent).toContain("This connection is read-only: items cannot be deleted.");
  });
});
