//! Deleting a table, confirmed where the web view cannot answer for the user.
//!
//! `delete_table` does not take the table's name typed back from the UI as its confirmation: a
//! caller that can send the command can send the name too. It takes a [`DeleteToken`] that the
//! backend issues for one table of one connection, only after the user confirmed in a dialog the
//! shell shows natively ([`App::issue_delete_token`], called by the desktop shell after its own
//! message dialog). A token is single-use, bound to its connection and table, and expires after
//! [`TOKEN_LIFETIME`]. A read-only connection is refused before any token is looked at.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::{App, CommandError, ErrorCode};

/// How long a confirmation stays good for.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(120);

/// What the UI gets after the user confirmed: the token to send with `delete_table`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct DeleteToken {
    pub token: String,
    pub table: String,
}

/// The tokens issued and not yet used.
#[derive(Debug, Default)]
pub struct DeleteTokens {
    next: AtomicU64,
    salt: RandomState,
    issued: Mutex<HashMap<String, (String, String, Instant)>>,
}

impl DeleteTokens {
    fn issue(&self, profile_id: &str, table: &str) -> DeleteToken {
        let number = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let token = format!(
            "delete-{number}-{:016x}",
            self.salt.hash_one((number, profile_id, table))
        );
        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        issued.retain(|_, (_, _, at)| at.elapsed() < TOKEN_LIFETIME);
        issued.insert(
            token.clone(),
            (profile_id.to_owned(), table.to_owned(), Instant::now()),
        );
        DeleteToken {
            token,
            table: table.to_owned(),
        }
    }

    /// Uses up `token` if it was issued for this table of this connection and is still good.
    fn redeem(&self, token: &str, profile_id: &str, table: &str) -> Result<(), CommandError> {
        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        match issued.get(token) {
            Some((p, t, at)) if p == profile_id && t == table && at.elapsed() < TOKEN_LIFETIME => {
                issued.remove(token);
                Ok(())
            }
            Some((_, _, at)) if at.elapsed() >= TOKEN_LIFETIME => {
                issued.remove(token);
                Err(unconfirmed(table, "The confirmation has expired."))
            }
            Some(_) => Err(unconfirmed(
                table,
                "The confirmation was given for another table.",
            )),
            None => Err(unconfirmed(table, "The deletion was not confirmed.")),
        }
    }
}

fn unconfirmed(table: &str, why: &str) -> CommandError {
    CommandError::new(
        ErrorCode::NotConfirmed,
        format!("{why} Nothing was deleted: confirm the deletion of \u{201c}{table}\u{201d} again."),
    )
}

impl App {
    /// Issues the token that lets `delete_table` delete `table`. The desktop shell calls this
    /// only once the user confirmed in its native dialog; no UI command reaches it directly.
    pub async fn issue_delete_token(
        &self,
        profile_id: &str,
        table: &str,
    ) -> Result<DeleteToken, CommandError> {
        self.session(profile_id).await?.writable()?;
        Ok(self.inner.delete_tokens.issue(profile_id, table))
    }

    /// Deletes `table` with a token [`App::issue_delete_token`] gave for it.
    pub async fn delete_table(&self, profile_id: &str, table: &str, token: &str) -> Result<(), CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        self.inner.delete_tokens.redeem(token, profile_id, table)?;
        session
            .client
            .delete_table()
            .table_name(table)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        session
            .descriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(table);
        Ok(())
    }
}
