//! The `Host` check against DNS rebinding: a web page whose own name the attacker re-points at
//! 127.0.0.1 can make the browser send requests to a local endpoint, but the browser still names
//! the attacker's host in `Host`. So a local endpoint answers only requests whose `Host` names
//! it: `localhost`, `127.0.0.1`, `[::1]`, the address it is bound to, and the names given with
//! `--allow-host`; any other name is refused before anything else is looked at.
//!
//! Only the name matters, not the port: a rebinding needs a name the attacker controls, and a
//! port forward (a container published on another port, an SSH tunnel) changes the port the
//! client names. For the same reason a server bound to every interface (`0.0.0.0`, `::`) also
//! answers to any IP address literal, which is how clients on the network reach it; a name they
//! use must be allowed with `--allow-host`.

use std::net::{IpAddr, SocketAddr};

/// The host names an endpoint answers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedHosts {
    /// The address the listener is bound to.
    bound: IpAddr,
    /// Extra names (lower case), from `--allow-host`.
    names: Vec<String>,
}

impl AllowedHosts {
    /// The names an endpoint bound to `bound` answers to, plus `extra`.
    pub fn new(bound: SocketAddr, extra: &[String]) -> AllowedHosts {
        AllowedHosts {
            bound: bound.ip(),
            names: extra
                .iter()
                .map(|name| name.trim().to_ascii_lowercase())
                .collect(),
        }
    }

    /// Whether a request with this `Host` header value is answered.
    pub fn allows(&self, host: &str) -> bool {
        let Some(name) = host_name(host) else {
            return false;
        };
        let name = name.to_ascii_lowercase();
        if name == "localhost" || self.names.contains(&name) {
            return true;
        }
        match name.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.bound || self.bound.is_unspecified(),
            Err(_) => false,
        }
    }

    /// The names, for the refusal's message: `localhost, 127.0.0.1, [::1]` and the rest.
    pub fn describe(&self) -> String {
        let mut names = vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "[::1]".to_owned()];
        if self.bound.is_unspecified() {
            names.push("any IP address".to_owned());
        } else if !self.bound.is_loopback() {
            names.push(match self.bound {
                IpAddr::V6(ip) => format!("[{ip}]"),
                IpAddr::V4(ip) => ip.to_string(),
            });
        }
        names.extend(self.names.iter().cloned());
        names.join(", ")
    }
}

/// The name part of a `Host` value: `localhost:8000` → `localhost`, `[::1]:8000` → `::1`,
/// `127.0.0.1` → `127.0.0.1`. `None` for a value that is not a host (empty, a bad port).
fn host_name(host: &str) -> Option<&str> {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        return (after.is_empty() || valid_port(after.strip_prefix(':')?)).then_some(name);
    }
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    if name.is_empty() || name.contains(':') || port.is_some_and(|port| !valid_port(port)) {
        return None;
    }
    Some(name)
}

fn valid_port(port: &str) -> bool {
    !port.is_empty() && port.parse::<u16>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(bound: &str, extra: &[&str]) -> AllowedHosts {
        let extra: Vec<String> = extra.iter().map(|name| (*name).to_owned()).collect();
        AllowedHosts::new(bound.parse().unwrap(), &extra)
    }

    #[test]
    fn loopback_names_are_answered_on_any_port() {
        let hosts = on("127.0.0.1:8000", &[]);
        for host in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
            "localhost",
            "127.0.0.1",
            "127.0.0.1:9000",
            "127.1.2.3:8000",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn other_names_are_refused() {
        let hosts = on("127.0.0.1:8000", &[]);
        for host in [
            "evil.example:8000",
            "evil.example",
            "localhost.evil.example:8000",
            "192.168.1.5:8000",
            "",
            ":8000",
            "localhost:http",
            "localhost:99999",
            "[::1",
            "::1:8000",
        ] {
            assert!(!hosts.allows(host), "{host:?}");
        }
    }

    #[test]
    fn the_bound_address_and_allowed_names_are_answered() {
        let hosts = on("192.168.1.5:8000", &["dynamo.test"]);
        assert!(hosts.allows("192.168.1.5:8000"));
        assert!(hosts.allows("Dynamo.Test:8000"));
        assert!(!hosts.allows("192.168.1.6:8000"));
        assert!(!hosts.allows("other.test:8000"));
        assert_eq!(
            hosts.describe(),
            "localhost, 127.0.0.1, [::1], 192.168.1.5, dynamo.test"
        );
    }

    #[test]
    fn every_interface_answers_to_ip_literals_but_not_to_names() {
        let hosts = on("0.0.0.0:8000", &[]);
        assert!(hosts.allows("192.168.1.5:8000"));
        assert!(hosts.allows("[fe80::1]:8000"));
        assert!(!hosts.allows("evil.example:8000"));
    }
}
