#pragma once
// OpenSSL objects owned by unique_ptr.

#include <memory>
#include <string>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

namespace ptc::mcp::auth {

template <class T, void (*Free)(T*)>
struct OpensslDeleter {
  void operator()(T* p) const { Free(p); }
};

using PkeyPtr = std::unique_ptr<EVP_PKEY, OpensslDeleter<EVP_PKEY, EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, OpensslDeleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, OpensslDeleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using BignumPtr = std::unique_ptr<BIGNUM, OpensslDeleter<BIGNUM, BN_free>>;
using EcdsaSigPtr = std::unique_ptr<ECDSA_SIG, OpensslDeleter<ECDSA_SIG, ECDSA_SIG_free>>;
using ParamBldPtr = std::unique_ptr<OSSL_PARAM_BLD, OpensslDeleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using ParamsPtr = std::unique_ptr<OSSL_PARAM, OpensslDeleter<OSSL_PARAM, OSSL_PARAM_free>>;

/// Empties this thread's OpenSSL error queue: a failed verification leaves entries that would otherwise
/// be blamed on the next, unrelated call.
inline void clear_openssl_errors() { ERR_clear_error(); }

}  // namespace ptc::mcp::auth
