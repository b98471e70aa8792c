#pragma once
// Owning handles for OpenSSL's C objects: each a unique_ptr whose deleter is OpenSSL's own free
// function, so that every early return of the certificate code frees what it made.

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <QByteArray>

#include <memory>

namespace hourglass::tls {

template <typename T, void (*Free)(T*)> struct OpenSslDeleter {
    void operator()(T* object) const { Free(object); }
};

using PrivateKey = std::unique_ptr<EVP_PKEY, OpenSslDeleter<EVP_PKEY, EVP_PKEY_free>>;
using Certificate = std::unique_ptr<X509, OpenSslDeleter<X509, X509_free>>;
using CertificateStore = std::unique_ptr<X509_STORE, OpenSslDeleter<X509_STORE, X509_STORE_free>>;
using StoreContext =
    std::unique_ptr<X509_STORE_CTX, OpenSslDeleter<X509_STORE_CTX, X509_STORE_CTX_free>>;
using BigNumber = std::unique_ptr<BIGNUM, OpenSslDeleter<BIGNUM, BN_free>>;
using Asn1Time = std::unique_ptr<ASN1_TIME, OpenSslDeleter<ASN1_TIME, ASN1_TIME_free>>;
using Extension =
    std::unique_ptr<X509_EXTENSION, OpenSslDeleter<X509_EXTENSION, X509_EXTENSION_free>>;
using GeneralNames =
    std::unique_ptr<GENERAL_NAMES, OpenSslDeleter<GENERAL_NAMES, GENERAL_NAMES_free>>;

inline void freeBio(BIO* bio) {
    BIO_free(bio);
}
using Bio = std::unique_ptr<BIO, OpenSslDeleter<BIO, freeBio>>;

// A read-only memory BIO over bytes that must outlive it.
inline Bio memoryBioOver(const QByteArray& bytes) {
    return Bio(BIO_new_mem_buf(bytes.constData(), static_cast<int>(bytes.size())));
}

// What a memory BIO holds, copied out.
inline QByteArray bioBytes(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? QByteArray(data, static_cast<qsizetype>(size)) : QByteArray();
}

} // namespace hourglass::tls
