/** Moved to the shared vocabulary (`ui/src/shared/TypedValue.tsx`); kept so older imports still work. */
export * from "../../shared/TypedValue";
