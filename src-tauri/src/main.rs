// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    dynotable_lib::start_env::prepare();
    dynotable_lib::run();
}
