pub mod nvtest;
