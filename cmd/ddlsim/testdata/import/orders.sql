*************************** 1. row ***************************
       Table: orders
Create Table: CREATE TABLE `orders` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT,
  `customer_id` int unsigned NOT NULL,
  `status` varchar(16) NOT NULL DEFAULT 'new',
  `total` decimal(12,2) NOT NULL,
  `note` text,
  `created_at` datetime(6) NOT NULL,
  PRIMARY KEY (`id`),
  KEY `idx_created` (`created_at`),
  KEY `idx_status_total` (`status`(8),`total`)
) ENGINE=InnoDB AUTO_INCREMENT=310000001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci
