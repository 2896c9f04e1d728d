//! How the window's web view draws, on Linux.
//!
//! WebKitGTK composites a page's layers with OpenGL unless told otherwise. On a machine without a
//! GPU — a virtual machine, a remote or Xvfb session, a container: anywhere no DRI render node
//! exists — that OpenGL is Mesa's software rasteriser, and compositing through it costs far more
//! per frame than WebKit's own CPU painting: measured here, scrolling the Collections view of a
//! 10,000-collection table took several times longer per frame composited than painted
//! (bench/app/views.md). So where the machine has no render node, the web view is told never to
//! use hardware acceleration; where it has one, WebKit's default stands.
//!
//! `DYNOTABLE_HARDWARE_ACCELERATION=always|never` overrides the choice (a GPU whose driver
//! misbehaves, or a comparison run).

/// What the web view is told about hardware acceleration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceleration {
    /// WebKit's default (composited with the GPU).
    Default,
    /// Painted by the CPU, never composited through OpenGL.
    Never,
}

/// The variable that overrides the choice.
pub const OVERRIDE_VAR: &str = "DYNOTABLE_HARDWARE_ACCELERATION";

/// The choice for a machine with or without a DRI render node, and the override's value if set.
pub fn choose(has_render_node: bool, override_value: Option<&str>) -> Acceleration {
    match override_value.map(str::trim) {
        Some("never") => Acceleration::Never,
        Some("always") => Acceleration::Default,
        _ if has_render_node => Acceleration::Default,
        _ => Acceleration::Never,
    }
}

/// Whether `/dev/dri` holds a render node (`renderD128`, …): a GPU the compositor could use.
pub fn has_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri)
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false)
}

/// Applies the choice for this machine to a window's web view (Linux; elsewhere nothing to do).
pub fn apply<R: tauri::Runtime>(window: &tauri::WebviewWindow<R>) {
    let choice = choose(
        has_render_node(std::path::Path::new("/dev/dri")),
        std::env::var(OVERRIDE_VAR).ok().as_deref(),
    );
    tracing::info!(?choice, "web view hardware acceleration");
    #[cfg(target_os = "linux")]
    if choice == Acceleration::Never {
        let applied = window.with_webview(|webview| {
            use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
            if let Some(settings) = webview.inner().settings() {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
        });
        if let Err(error) = applied {
            tracing::warn!(%error, "the web view's settings could not be reached");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (window, choice);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_render_node_the_web_view_paints_on_the_cpu() {
        assert_eq!(choose(false, None), Acceleration::Never);
        assert_eq!(choose(true, None), Acceleration::Default);
    }

    #[test]
    fn the_override_wins_either_way() {
        assert_eq!(choose(true, Some("never")), Acceleration::Never);
        assert_eq!(choose(false, Some("always")), Acceleration::Default);
        // Anything else is no override.
        assert_eq!(choose(false, Some("sometimes")), Acceleration::Never);
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
