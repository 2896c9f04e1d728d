/**
 * The statement editor: CodeMirror 6 with PartiQL highlighting, completion, Ctrl/Cmd+Enter to run
 * and the errors DynamoDB gave marked where they apply. The text is owned by the parent: a change
 * typed here goes up through `onChange`, a text set from outside (history) replaces the document.
 */
import { useEffect, useRef } from "react";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, syntaxHighlighting } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { sql } from "@codemirror/lang-sql";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view";
import { PartiQL } from "./dialect";
import { ARRIVAL } from "../../shared/arrival";
import "./codemirror.css";

/** A place in the text DynamoDB's answer points at. */
export type Mark = { from: number; to: number; message: string };

export function PartiqlEditor({
  value,
  onChange,
  onRun,
  completion,
  marks,
}: {
  value: string;
  onChange: (text: string) => void;
  onRun: () => void;
  completion: CompletionSource;
  marks: readonly Mark[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onRun, completion });
  latest.current = { onChange, onRun, completion };

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          closeBrackets(),
          sql({ dialect: PartiQL }),
          syntaxHighlighting(classHighlighter),
          autocompletion({ override: [(context) => latest.current.completion(context)], activateOnTyping: true }),
          lintGutter(),
          placeholder('SELECT * FROM "Table" WHERE "key" = ?'),
          Prec.highest(
            keymap.of([
              {
                key: "Mod-Enter",
                run: () => {
                  latest.current.onRun();
                  return true;
                },
              },
            ]),
          ),
          keymap.of([...closeBracketsKeymap, ...completionKeymap, ...historyKeymap, ...defaultKeymap]),
          EditorView.lineWrapping,
          // Where the PartiQL tab is entered as it opens (`ARRIVAL`).
          EditorView.contentAttributes.of({ "aria-label": "PartiQL statement", "data-testid": "partiql-input", ...ARRIVAL }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values arrive through the effects below.
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = marks.map((m) => ({
      from: Math.min(m.from, length),
      to: Math.min(m.to, length),
      severity: "error",
      message: m.message,
    }));
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [marks]);

  return <div className="partiql-editor" ref={host} />;
}
