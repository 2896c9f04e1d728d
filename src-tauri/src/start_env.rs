//! The app's environment on Linux, chosen before anything runs: how the web view's frames reach
//! the screen, how its JavaScript is compiled and its heap collected, and how many heaps the C
//! allocator keeps.
//! WebKitGTK, its JavaScript engine and glibc read each from a variable, when the first web view
//! is made or the first allocation happens; the web view's processes inherit them.
//!
//! **Frames.** WebKitGTK composites a page's layers with OpenGL and passes each frame to the
//! window as a DMA-BUF. On a machine without a GPU (a virtual machine, a remote or Xvfb session, a
//! container: anywhere `/dev/dri` holds no render node) that OpenGL is Mesa's software rasteriser,
//! and a frame costs several times what it costs when WebKit passes frames in shared memory
//! instead (`bench/app/views.md`: scrolling the Collections view of a 10,000-collection table, and
//! the static page under it). So where the machine has no render node, the app starts with
//! WebKit's `WEBKIT_DISABLE_DMABUF_RENDERER` set; where it has one, WebKit's default stands.
//! `DYNOTABLE_HARDWARE_ACCELERATION=always` keeps WebKit's default on a machine without a render
//! node; `never` asks for shared memory on one with a render node.
//!
//! **Collections.** A scroll through a large table's collections removes and creates about
//! 10,000 elements for every 90 boxes it passes, and each element React has touched has a
//! JavaScript wrapper that holds it. With JavaScriptCore's generational collector the web process
//! grew by 20–30 MB for every 90 new boxes, and kept growing (Fleet: +186 MB over 540 boxes); with
//! every collection a full one (`JSC_useGenerationalGC=0`) it stayed within 10 MB of where the
//! first 90 left it, with the same frame times (`bench/app/views.md`, session 2026-12-06). The
//! app's heap is small (tens of MB), so a full collection costs milliseconds.
//!
//! **Allocator arenas.** glibc's `malloc` gives threads that allocate at once heaps ("arenas") of
//! their own, up to 8 per core, and keeps what is freed in each for the next allocation there.
//! A Scan of a million items from the query bar passes through the app's threads page by page
//! (the SDK's parse, the conversion, the channel to the web view): afterwards two arenas of
//! 64 MB each stayed resident, though the live heap was never above ~90 MB (heaptrack), and the
//! app's process held ~235 MB (~108 MB with the table just opened). With one arena
//! (`MALLOC_ARENA_MAX=1`) it held ~180 MB, the Scan took as long, and scrolling was unchanged
//! (`bench/app/views.md`, session 23, release builds). The app's threads allocate little at
//! once; a server's would (`dynotable-local` keeps its own allocator).
//!
//! **The JavaScript heap's threshold and the optimising compiler.** Even so, the first scroll of 240
//! frames through Fleet (~90 new boxes) added ~65 MB of anonymous memory to the web process, and
//! the app's processes went from ~273 to ~340 MB. Two causes were found (`bench/app/views.md`,
//! session 24, release builds; `JSC_logGC=1` on the web process):
//! - JavaScriptCore lets the web view's heap grow to `largeHeapSize` (32 MB) before it collects,
//!   and the scroll stayed under it: it ran without a single collection, so every element React
//!   removed was still held by its wrapper, with the element's own memory behind it, when the
//!   scroll ended. The live heap after a collection is ~9 MB; with that floor at 4 MB
//!   (`JSC_largeHeapSize`) the heap is collected when it has doubled, JavaScriptCore's
//!   proportional rule, and the removed elements are freed during the scroll.
//! - The DFG and FTL compilers (`JSC_useDFGJIT=0` turns both off; the interpreter and the baseline
//!   JIT stay) took ~13 MB with the table just opened and ~20 MB more over the scroll. Without
//!   them the frames, a box's first rows and a whole Scan took no longer (the rows came sooner:
//!   on 2 cores the compiler's thread competed with the page): their time is spent in the web
//!   view's native code and the app's, not in long JavaScript loops. A synthetic loop that only
//!   makes objects runs ~1.6× as long (and 1.25× from the more frequent collections);
//!   `JSC_useDFGJIT=1` brings the compilers back.
//!
//! Together: the app's processes ~262 MB with Fleet opened (274 before), ~300–313 MB as a scroll
//! ends (341), ~282–289 MB 20 s later (329), frame times unchanged. Without any JIT
//! (`JSC_useJIT=0`) they stayed under 280 MB after the scroll, but that synthetic loop ran 3× as
//! long again as without the optimising compilers: not taken.
//!
//! A variable the user set wins, for each of them.
//!
//! The variables must be in the environment before [`crate::run`] builds anything: [`prepare`] is
//! the first thing `main` does.

/// The variable WebKitGTK reads.
pub const WEBKIT_VAR: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";

/// The variable that overrides the choice.
pub const OVERRIDE_VAR: &str = "DYNOTABLE_HARDWARE_ACCELERATION";

/// How the web view passes its frames to the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frames {
    /// WebKit's default: DMA-BUF, or whatever the user's own `WEBKIT_DISABLE_DMABUF_RENDERER` says.
    Default,
    /// Shared memory (`WEBKIT_DISABLE_DMABUF_RENDERER=1`).
    SharedMemory,
}

/// The choice for a machine with or without a DRI render node, given the override's value and
/// whether the user set WebKit's variable themselves.
pub fn decide(has_render_node: bool, override_value: Option<&str>, user_set_webkit_var: bool) -> Frames {
    if user_set_webkit_var {
        return Frames::Default;
    }
    match override_value.map(str::trim) {
        Some("never") => Frames::SharedMemory,
        Some("always") => Frames::Default,
        _ if has_render_node => Frames::Default,
        _ => Frames::SharedMemory,
    }
}

/// Whether `dri` holds a render node (`renderD128`, …): a GPU the compositor could use.
pub fn has_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri)
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false)
}

/// JavaScriptCore's option for a generational heap (`0`: every collection is a full one).
pub const JSC_GENERATIONAL_VAR: &str = "JSC_useGenerationalGC";

/// JavaScriptCore's option for its optimising compilers, DFG and FTL (`0`: neither).
pub const JSC_DFG_VAR: &str = "JSC_useDFGJIT";

/// The size, in bytes, under which JavaScriptCore does not collect the web view's heap (default 32 MB).
pub const JSC_LARGE_HEAP_VAR: &str = "JSC_largeHeapSize";

/// glibc's limit on the allocator's arenas (`1`: one heap for every thread).
pub const MALLOC_ARENAS_VAR: &str = "MALLOC_ARENA_MAX";

/// The variables set on every start, with their values (the module's documentation says why).
pub const MEMORY_VARS: [(&str, &str); 4] = [
    (JSC_GENERATIONAL_VAR, "0"),
    (JSC_DFG_VAR, "0"),
    (JSC_LARGE_HEAP_VAR, "4000000"),
    (MALLOC_ARENAS_VAR, "1"),
];

/// The variables to add to the environment, given the choice of frames and which variables the
/// user set themselves (`user_set(name)`; an empty list: none to add).
pub fn additions(frames: Frames, user_set: impl Fn(&str) -> bool) -> Vec<(&'static str, &'static str)> {
    let mut add = Vec::new();
    if frames == Frames::SharedMemory {
        add.push((WEBKIT_VAR, "1"));
    }
    add.extend(MEMORY_VARS.into_iter().filter(|(name, _)| !user_set(name)));
    add
}

/// Decides for this machine; where a variable is to be added, starts the app again in place (same
/// process, arguments and environment, plus the variables). Elsewhere than Linux the web view is
/// not WebKitGTK, and nothing is done.
///
/// The process environment cannot be changed safely once a program runs (this workspace forbids
/// `unsafe`), so the variables are given to a fresh image of the program instead: `exec` replaces
/// the process before GTK or any thread exists, and costs one more load of the binary (on every
/// start, unless the user set the variables: the collector's and the allocator's are added on
/// machines with a GPU too). If `exec` fails, the app goes on with WebKit's defaults.
#[cfg(target_os = "linux")]
pub fn prepare() -> Frames {
    use std::os::unix::process::CommandExt;
    let frames = decide(
        has_render_node(std::path::Path::new("/dev/dri")),
        std::env::var(OVERRIDE_VAR).ok().as_deref(),
        std::env::var_os(WEBKIT_VAR).is_some(),
    );
    let add = additions(frames, |name| std::env::var_os(name).is_some());
    // The restarted process finds the variables set, adds none, and goes on.
    if !add.is_empty()
        && let Ok(program) = std::env::current_exe()
    {
        let error = std::process::Command::new(program)
            .args(std::env::args_os().skip(1))
            .envs(add.iter().copied())
            .exec();
        eprintln!("DynoTable: could not start again with {add:?} ({error}); going on with WebKit's defaults");
        return Frames::Default;
    }
    frames
}

/// Elsewhere than Linux the web view is not WebKitGTK: nothing to choose.
#[cfg(not(target_os = "linux"))]
pub fn prepare() -> Frames {
    Frames::Default
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_render_node_frames_go_through_shared_memory() {
        assert_eq!(decide(false, None, false), Frames::SharedMemory);
        assert_eq!(decide(true, None, false), Frames::Default);
    }

    #[test]
    fn the_override_wins_either_way() {
        assert_eq!(decide(true, Some("never"), false), Frames::SharedMemory);
        assert_eq!(decide(false, Some("always"), false), Frames::Default);
        // Anything else is no override.
        assert_eq!(decide(false, Some("sometimes"), false), Frames::SharedMemory);
    }

    #[test]
    fn a_webkit_variable_the_user_set_is_left_alone() {
        assert_eq!(decide(false, None, true), Frames::Default);
        assert_eq!(decide(true, Some("never"), true), Frames::Default);
    }

    #[test]
    fn the_heap_and_the_allocator_are_tuned_unless_the_user_said_otherwise() {
        let none = |_: &str| false;
        let tuned = vec![
            (JSC_GENERATIONAL_VAR, "0"),
            (JSC_DFG_VAR, "0"),
            (JSC_LARGE_HEAP_VAR, "4000000"),
            (MALLOC_ARENAS_VAR, "1"),
        ];
        assert_eq!(additions(Frames::Default, none), tuned);
        let mut with_frames = vec![(WEBKIT_VAR, "1")];
        with_frames.extend(tuned);
        assert_eq!(additions(Frames::SharedMemory, none), with_frames);
        // Each variable the user set is left alone.
        assert_eq!(
            additions(Frames::SharedMemory, |name| name == JSC_GENERATIONAL_VAR
                || name == JSC_LARGE_HEAP_VAR),
            vec![(WEBKIT_VAR, "1"), (JSC_DFG_VAR, "0"), (MALLOC_ARENAS_VAR, "1")]
        );
        assert_eq!(
            additions(Frames::Default, |name| name != MALLOC_ARENAS_VAR),
            vec![(MALLOC_ARENAS_VAR, "1")]
        );
        // Nothing to add: the app is not started again.
        assert!(additions(Frames::Default, |_| true).is_empty());
    }

    #[test]
    fn a_render_node_is_found_by_its_name() {
        let dir = std::env::temp_dir().join(format!("dynotable-dri-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(!has_render_node(&dir));
        std::fs::write(dir.join("card0"), b"").unwrap();
        assert!(!has_render_node(&dir));
        std::fs::write(dir.join("renderD128"), b"").unwrap();
        assert!(has_render_node(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(!has_render_node(&dir));
    }
}
