//! The services: each owns its part of the server's rules and state, and answers in domain
//! values and errors. They sit below the HTTP layer and above the store, and none knows the
//! ones that follow a change it makes ([`games::Followers`]).

pub mod accounts;
pub mod clocks;
pub mod computer;
pub mod games;
pub mod lobby;
pub mod logins;
pub mod notify;
pub mod ratings;
pub mod reviews;
