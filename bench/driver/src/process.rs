//! The servers under test as processes: start one on a fresh port and directory, time its
//! startup, read its RSS and CPU time from /proc, stop it.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::http::*;

pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) kind: String,
    pub(crate) mode: String,
    pub(crate) mode_note: String,
    pub(crate) command: Vec<String>,
}

pub(crate) struct Server {
    /// `None` when attached to a server started by someone else (`--attach`).
    pub(crate) child: Option<Child>,
    pub(crate) pid: u32,
    pub(crate) addr: SocketAddr,
}

impl Server {
    pub(crate) fn rss_kb(&self) -> Option<u64> {
        status_field(self.pid, "VmRSS:")
    }
    pub(crate) fn hwm_kb(&self) -> Option<u64> {
        status_field(self.pid, "VmHWM:")
    }
    /// utime + stime of the whole process, in milliseconds.
    pub(crate) fn cpu_ms(&self) -> u64 {
        proc_cpu_ms(&format!("/proc/{}/stat", self.pid))
    }
    pub(crate) fn stop(mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub(crate) fn status_field(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub(crate) fn proc_cpu_ms(path: &str) -> u64 {
    let Ok(s) = std::fs::read_to_string(path) else {
        return 0;
    };
    // Fields after the `(comm)`: state is field 3; utime 14, stime 15 (1-based).
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else {
        return 0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    ticks * 10 // USER_HZ is 100 on Linux
}

pub(crate) fn self_cpu_ms() -> u64 {
    proc_cpu_ms("/proc/self/stat")
}

pub(crate) fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?.port())
}

/// Starts the target on a fresh port (and fresh directory) and waits for the first 200 to
/// ListTables. Returns the server and the startup time.
pub(crate) fn start(t: &Target, run_dir: &std::path::Path, n: usize) -> Result<(Server, Duration)> {
    let dir = run_dir.join(format!("{}-{n}", t.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    start_in(t, &dir, &[], "server.log")
}

/// Starts `t` again on the data its start number `n` left (nothing is wiped), with `extra`
/// arguments after its command, logging to `log_name` in the same folder.
pub(crate) fn restart(
    t: &Target,
    run_dir: &std::path::Path,
    n: usize,
    extra: &[&str],
    log_name: &str,
) -> Result<(Server, Duration)> {
    start_in(t, &run_dir.join(format!("{}-{n}", t.name)), extra, log_name)
}

fn start_in(t: &Target, dir: &std::path::Path, extra: &[&str], log_name: &str) -> Result<(Server, Duration)> {
    let port = free_port()?;
    let args: Vec<String> = t
        .command
        .iter()
        .map(|a| {
            a.replace("{port}", &port.to_string())
                .replace("{dir}", &dir.to_string_lossy())
        })
        .chain(extra.iter().map(|a| a.to_string()))
        .collect();
    let log = std::fs::File::create(dir.join(log_name))?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let t0 = Instant::now();
    let child = Command::new(&args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .with_context(|| format!("spawn {args:?}"))?;
    let pid = child.id();
    let mut server = Server {
        child: Some(child),
        pid,
        addr,
    };
    loop {
        if let Ok(true) = list_tables_blocking(addr) {
            return Ok((server, t0.elapsed()));
        }
        if let Some(Ok(Some(status))) = server.child.as_mut().map(|c| c.try_wait()) {
            bail!(
                "{} exited during startup with {status}; see {}",
                t.name,
                dir.join(log_name).display()
            );
        }
        if t0.elapsed() > Duration::from_secs(60) {
            server.stop();
            bail!("{} did not answer ListTables within 60 s", t.name);
        }
        std::thread::sleep(Duration::from_micros(100));
    }
}
