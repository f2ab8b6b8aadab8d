/*
 * format.h: the recording format's version (kgtop-record(5)).
 *
 * The recorder writes it into every header line; replay refuses a file
 * whose version is higher.  Adding keys does not change it (readers
 * ignore keys they do not know); changing what a key means does.
 */
#ifndef KGTOP_RECORD_FORMAT_H
#define KGTOP_RECORD_FORMAT_H

#define KG_RECORD_VERSION 5

#endif
