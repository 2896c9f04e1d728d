//! How the window's web view hands its frames to the screen on Linux, chosen before it exists.
//!
//! WebKitGTK composites a page's layers with OpenGL and passes each frame to the window as a
//! DMA-BUF. On a machine without a GPU (a virtual machine, a remote or Xvfb session, a container:
//! anywhere `/dev/dri` holds no render node) that OpenGL is Mesa's software rasteriser, and a frame
//! costs several times what it costs when WebKit passes frames in shared memory instead
//! (`bench/app/views.md`: scrolling the Collections view of a 10,000-collection table, and the
//! static page under it). So where the machine has no render node, the app starts with WebKit's
//! `WEBKIT_DISABLE_DMABUF_RENDERER` set; where it has one, WebKit's default stands.
//!
//! WebKit reads the variable when its first web view is made, and its web processes inherit it,
//! so it must be in the environment before [`crate::run`] builds anything: [`choose`] is the first
//! thing `main` does.
//!
//! A variable the user set wins. `DYNOTABLE_HARDWARE_ACCELERATION=always` keeps WebKit's default
//! on a machine without a render node; `never` asks for shared memory on one with a render node.

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

/// Decides for this machine; where shared memory is chosen and WebKit's variable is not set yet,
/// starts the app again in place (same process, arguments and environment, plus the variable).
/// Elsewhere than Linux the web view is not WebKitGTK, and nothing is done.
///
/// The process environment cannot be changed safely once a program runs (this workspace forbids
/// `unsafe`), so the variable is given to a fresh image of the program instead: `exec` replaces
/// the process before GTK or any thread exists, and costs one more load of the binary. If `exec`
/// fails, the app goes on with WebKit's default.
#[cfg(target_os = "linux")]
pub fn choose() -> Frames {
    use std::os::unix::process::CommandExt;
    let frames = decide(
        has_render_node(std::path::Path::new("/dev/dri")),
        std::env::var(OVERRIDE_VAR).ok().as_deref(),
        std::env::var_os(WEBKIT_VAR).is_some(),
    );
    // The restarted process finds the variable set, decides `Default`, and goes on.
    if frames == Frames::SharedMemory
        && let Ok(program) = std::env::current_exe()
    {
        let error = std::process::Command::new(program)
            .args(std::env::args_os().skip(1))
            .env(WEBKIT_VAR, "1")
            .exec();
        eprintln!(
            "DynoTable: could not start again with {WEBKIT_VAR}=1 ({error}); drawing with WebKit's default"
        );
        return Frames::Default;
    }
    frames
}

/// Elsewhere than Linux the web view is not WebKitGTK: nothing to choose.
#[cfg(not(target_os = "linux"))]
pub fn choose() -> Frames {
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
