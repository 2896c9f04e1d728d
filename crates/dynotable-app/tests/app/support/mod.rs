//! What several test files of `dynotable-app` share: dynalite, a DynamoDB implementation nobody
//! here wrote, on a free loopback port (from `tests/peers`, `npm ci --prefix tests/peers`, run by
//! `scripts/setup.sh`).

/// dynalite on a free loopback port, stopped when dropped.
pub struct Dynalite {
    child: std::process::Child,
    pub port: u16,
}

impl Dynalite {
    /// dynalite with extra command-line options (for example `--createTableMs 100`).
    pub fn start_with(options: &[&str]) -> Dynalite {
        let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/peers/node_modules/.bin/dynalite");
        assert!(
            bin.exists(),
            "{} is missing: run `npm ci --prefix tests/peers` (scripts/setup.sh does)",
            bin.display()
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = std::process::Command::new(bin)
            .args(["--port", &port.to_string(), "--host", "127.0.0.1"])
            .args(options)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("dynalite starts");
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Dynalite { child, port };
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("dynalite did not listen on port {port} within 10 s");
    }
}

impl Drop for Dynalite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
