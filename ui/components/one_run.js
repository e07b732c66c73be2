;
// Streamlit runs a component's function again whenever its data changes, but calls the cleanup
// it returned only when the component leaves the page: listeners and timers of every earlier
// run would pile up (a thousand keystrokes, a thousand hover handlers). So each run first undoes
// the one before it, through the undo kept on the component's element (ui/components/__init__.py).
export default function (args) {
  const box = args.parentElement;
  box.bplUndo?.();
  const cleanup = render(args);
  let done = false;
  const undo = () => {
    if (done) return;
    done = true;
    if (box.bplUndo === undo) box.bplUndo = null;
    cleanup?.();
  };
  box.bplUndo = undo;
  return undo;
}
